import { describe, expect, it } from "vitest";
import { mrrAtK, ndcgAtK, passAtK } from "../../src/eval/metrics.js";

const relevant = new Map([
  ["a", 1],
  ["b", 1],
]);

describe("retrieval metrics", () => {
  it("Pass@k is the share of relevant units in the top k", () => {
    expect(passAtK(["x", "a", "y", "b"], relevant, 2)).toBe(0.5);
    expect(passAtK(["x", "a", "y", "b"], relevant, 4)).toBe(1);
    expect(passAtK(["x"], relevant, 10)).toBe(0);
  });

  it("nDCG@k matches a hand computation, with graded gains", () => {
    // DCG = 1/log2(3) + 1/log2(5); IDCG = 1 + 1/log2(3)
    const expected = (1 / Math.log2(3) + 1 / Math.log2(5)) / (1 + 1 / Math.log2(3));
    expect(ndcgAtK(["x", "a", "y", "b"], relevant, 10)).toBeCloseTo(expected, 10);
    expect(ndcgAtK(["a", "b"], relevant, 10)).toBe(1);
    const graded = new Map([
      ["a", 2],
      ["b", 1],
    ]);
    expect(ndcgAtK(["b", "a"], graded, 10)).toBeCloseTo(
      (1 + 2 / Math.log2(3)) / (2 + 1 / Math.log2(3)),
      10,
    );
  });

  it("MRR@k is the reciprocal rank of the first hit within k", () => {
    expect(mrrAtK(["x", "y", "b"], relevant, 10)).toBeCloseTo(1 / 3, 10);
    expect(mrrAtK(["x", "y", "b"], relevant, 2)).toBe(0);
  });
});
