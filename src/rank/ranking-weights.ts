import type { RankingModel } from "./ranking-model.js";

/**
 * Written by `npm run train-ranker` from the rows pinned in bench/ranker/data/
 * (see bench/ranker/README.md): pairwise logistic regression over the code
 * questions and the commit benchmark. Do not edit by hand.
 */
export const TRAINED_RANKING_MODEL: RankingModel = {
  bias: -3.5099,
  weights: {
    keyword: 1.1863,
    keywordRank: 0.3177,
    graph: 0.1954,
    reached: 0,
    coChange: 0.6359,
    message: 0.9912,
    otherRole: -2.9467,
    askedRole: -1.8938,
    namedFile: 0.6598,
    definition: 0.3032,
    size: -1.0691,
    fileKeyword: 2.3356,
    fileHits: -1.0447,
    pathWords: 1.2456,
    symbolNamed: 0.4375,
    vector: 1,
    located: 5,
    docLead: 0.427,
  },
};
