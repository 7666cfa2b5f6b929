import { describe, expect, it } from "vitest";
import { resolveStrategyConfig } from "../../src/config/strategy-config.js";
import { fragmentLimit } from "../../src/strategies/strategy-settings.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

describe("how many fragments a strategy may return", () => {
  it("grows with the budget unless max_fragments is set", () => {
    const scaled = resolveStrategyConfig([]).settingsFor("simple-keyword");
    expect([2000, 8000, 32000].map((budget) => fragmentLimit(scaled, budget))).toEqual([
      100, 200, 800,
    ]);
    const set = resolveStrategyConfig([
      {
        path: "/p/ctx.toml",
        config: {
          context: { strategies: { settings: { "simple-keyword": { max_fragments: 60 } } } },
        },
      },
    ]).settingsFor("simple-keyword");
    expect(fragmentLimit(set, 32000)).toBe(60);
  });

  it("fills a large budget from more of the project than a hundred hits", async () => {
    const root = tempDir();
    writeFiles(
      root,
      Object.fromEntries(
        Array.from({ length: 260 }, (_, i) => [
          `src/handlers/refund${i}.ts`,
          `export function refundHandler${i}(order: { total: number }): number {\n  // refund the order total to the card\n  return order.total * ${i % 7};\n}\n`,
        ]),
      ),
    );
    const engine = await indexedEngine(root);
    const files = async (budget: number) =>
      new Set(
        (
          await engine.query({ task: "refund the order total", budget, format: "json" })
        ).fragments.map((fragment) =>
          fragment.source.kind === "file" ? fragment.source.path : "",
        ),
      ).size;
    expect(await files(32_000)).toBeGreaterThan(200);
    expect(await files(2_000)).toBeLessThan(100);
  }, 60_000);
});
