import { describe, expect, it } from "vitest";
import { firstInOrder } from "../../src/rank/first-in-order.js";

describe("firstInOrder", () => {
  it("gives what a full sort puts first, ties broken the same way", () => {
    let state = 11;
    const next = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    const order = (a: { support: number; node: number }, b: { support: number; node: number }) =>
      b.support - a.support || a.node - b.node;
    for (let round = 0; round < 50; round++) {
      const size = Math.floor(next() * 400);
      // Few distinct supports, so ties are common and the node decides.
      const items = Array.from({ length: size }, (_, node) => ({
        support: Math.floor(next() * 6) / 5,
        node,
      })).sort(() => next() - 0.5);
      for (const count of [0, 1, 7, 20, 500]) {
        expect(firstInOrder(items, count, order)).toEqual([...items].sort(order).slice(0, count));
      }
    }
  });
});
