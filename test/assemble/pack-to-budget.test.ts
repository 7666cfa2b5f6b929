import { describe, expect, it } from "vitest";
import { packToBudget } from "../../src/assemble/pack-to-budget.js";
import { rendererFor } from "../../src/assemble/renderers.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { fileFragment } from "../helpers/test-strategies.js";

const pack = (
  candidates: Parameters<typeof packToBudget>[0],
  limit: number,
  allocation: ReadonlyMap<string, number>,
) =>
  packToBudget(candidates, {
    task: "alpha",
    budget: limit,
    limit,
    counter: o200kCounter,
    allocation,
    renderer: rendererFor("json", { explain: false, runs: [] }),
  });

describe("packing several strategies' fragments", () => {
  it("shows a fragment larger than its strategy's share whole when the others leave room", () => {
    const big = fileFragment("keyword", "src/big.ts", 1, 60, 1);
    const small = fileFragment("graph", "src/small.ts", 1, 3, 0.5);
    const packed = pack(
      [big, small],
      2000,
      new Map([
        ["keyword", 100],
        ["graph", 1900],
      ]),
    );
    const shown = packed.fragments.find(
      (fragment) => fragment.source.kind === "file" && fragment.source.path === "src/big.ts",
    );
    expect(shown?.detailDepth ?? "full").toBe("full");
    expect(shown?.content).toBe(big.content);
    expect(packed.reduced).toBe(0);
  });

  it("reports a reduced fragment's own tokens, not those of the whole", () => {
    const big = fileFragment("keyword", "src/big.ts", 1, 200, 1);
    const small = fileFragment("graph", "src/small.ts", 1, 3, 0.5);
    const packed = pack(
      [big, small],
      400,
      new Map([
        ["keyword", 200],
        ["graph", 200],
      ]),
    );
    const reduced = packed.fragments.filter(
      (fragment) => fragment.detailDepth !== undefined && fragment.detailDepth !== "full",
    );
    expect(reduced.length).toBeGreaterThan(0);
    for (const fragment of reduced)
      expect(fragment.tokens).toBe(o200kCounter.count(fragment.content));
  });
});
