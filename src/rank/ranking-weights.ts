import type { RankingModel } from "../core/rank-signals.js";

/**
 * Written by `npm run train-ranker` from the rows pinned in bench/ranker/data/
 * (see bench/ranker/README.md): pairwise logistic regression over the code
 * questions and the commit benchmark. Do not edit by hand.
 */
export const TRAINED_RANKING_MODEL: RankingModel = {
  bias: -3.5085,
  weights: {
    keyword: 1.1857,
    keywordRank: 0.2794,
    graph: 0.2221,
    reached: 0,
    coChange: 0.6451,
    message: 0.983,
    otherRole: -2.9423,
    askedRole: -1.8887,
    namedFile: 0.6699,
    definition: 0.2986,
    size: -1.0779,
    fileKeyword: 2.3493,
    fileHits: -1.0531,
    pathWords: 1.2452,
    symbolNamed: 0.4264,
    vector: 1,
    located: 5,
    docLead: 0.4314,
    nameWords: 0.3348,
    focused: 4,
    recentChanges: 2,
  },
};
