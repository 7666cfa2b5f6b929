import type { RankingModel } from "./ranking-model.js";

/**
 * Written by `npm run train-ranker` from the rows pinned in bench/ranker/data/
 * (see bench/ranker/README.md): pairwise logistic regression over the code
 * questions and the commit benchmark. Do not edit by hand.
 */
export const TRAINED_RANKING_MODEL: RankingModel = {
  bias: -3.5096,
  weights: {
    keyword: 1.2849,
    keywordRank: 0.3328,
    graph: 0.1613,
    reached: 0,
    coChange: 0.6428,
    message: 1.0191,
    otherRole: -2.9323,
    askedRole: -1.9091,
    namedFile: 0.6564,
    definition: 0.2795,
    size: -1.0451,
    fileKeyword: 2.306,
    fileHits: -1.0417,
    pathWords: 1.2268,
    symbolNamed: 0.4273,
    vector: 1,
    located: 5,
  },
};
