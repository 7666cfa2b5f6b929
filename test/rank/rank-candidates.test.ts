import { describe, expect, it } from "vitest";
import type { ContextFragment } from "../../src/core/fragment.js";
import type { ContextStrategyResult } from "../../src/core/strategy.js";
import { rankCandidates } from "../../src/rank/rank-candidates.js";
import { probabilityOf } from "../../src/rank/ranking-model.js";
import { TRAINED_RANKING_MODEL } from "../../src/rank/ranking-weights.js";
import { createTokenCounter } from "../../src/tokens/create-counter.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";
import { fileFragment } from "../helpers/test-strategies.js";

function resultOf(strategyName: string, fragments: ContextFragment[]): ContextStrategyResult {
  return {
    strategyName,
    fragments,
    totalFragments: fragments.length,
    tokensUsed: 0,
    executionTimeMs: 0,
    errors: [],
    stats: {},
  };
}

const TASK = "retry the upload after a timeout";

async function ranked(results: ContextStrategyResult[], weights: [string, number][]) {
  return rankCandidates({
    task: TASK,
    budget: 8000,
    results,
    weights: new Map(weights),
    text: undefined,
    counter: createTokenCounter("estimate"),
  });
}

describe("the ranking stage", () => {
  it("scores a fragment with signals by the model, and one without by its strategy and the named path rules", async () => {
    const measured = {
      ...fileFragment("keyword", "src/upload.ts", 1, 4, 12),
      signals: { keyword: 1, keywordRank: 0, fileKeyword: 1 },
    };
    const commit = fileFragment("history", "src/upload.ts", 20, 4, 3, "beta");
    const test = fileFragment("history", "test/fixtures.ts", 1, 4, 6, "gamma");
    const { candidates } = await ranked(
      [resultOf("keyword", [measured]), resultOf("history", [commit, test])],
      [
        ["keyword", 1],
        ["history", 0.5],
      ],
    );
    const byId = new Map(candidates.map((fragment) => [fragment.id, fragment]));

    const model = byId.get(measured.id);
    expect(model?.rank?.by).toBe("model");
    expect(model?.rank?.rules).toEqual([]);
    expect(model?.rank?.model?.features.keyword).toBe(1);
    const { features } = model?.rank?.model ?? {};
    if (!features) throw new Error("no features");
    expect(model?.score).toBeCloseTo(probabilityOf(TRAINED_RANKING_MODEL, features), 5);

    // The history strategy's best is half the keyword strategy's weight: 0.5; the rest in
    // proportion. The task names upload.ts.
    const code = byId.get(commit.id);
    expect(code?.rank).toEqual({
      by: "strategy",
      base: 0.25,
      rules: [{ rule: "named-file", factor: 1.5 }],
    });
    expect(code?.score).toBe(0.375);
    const other = byId.get(test.id);
    expect(other?.rank).toEqual({
      by: "strategy",
      base: 0.5,
      rules: [{ rule: "other-role", factor: 0.5 }],
    });
    expect(other?.score).toBe(0.25);
    expect(other?.ranking?.join(" ")).toMatch(/test file ×0.5/);
    expect(candidates.map((fragment) => fragment.score)).toEqual(
      [...candidates.map((fragment) => fragment.score)].sort((a, b) => b - a),
    );
  });

  it("keeps one copy of a fragment several strategies found, with the signals of all copies", async () => {
    const fromKeyword = {
      ...fileFragment("keyword", "src/upload.ts", 1, 4, 5),
      signals: { keyword: 0.4, keywordRank: 3 },
    };
    const fromGraph = {
      ...fileFragment("graph", "src/upload.ts", 1, 4, 9),
      signals: { keyword: 0.9, graph: 0.7 },
    };
    const { candidates, duplicates } = await ranked(
      [resultOf("keyword", [fromKeyword]), resultOf("graph", [fromGraph])],
      [
        ["keyword", 1],
        ["graph", 1],
      ],
    );
    expect(candidates).toHaveLength(1);
    expect(duplicates).toHaveLength(1);
    expect(candidates[0]?.signals).toEqual({ keyword: 0.9, keywordRank: 3, graph: 0.7 });
    expect(candidates[0]?.rank?.model?.features.graph).toBeGreaterThan(0);
  });

  it("--explain shows how each fragment's score was reached", async () => {
    const root = tempDir();
    writeFiles(root, {
      "src/upload.ts": `export function retryUpload(timeoutMs: number) {\n  return timeoutMs * 2;\n}\n`,
      "src/router.ts": `export function route(path: string) {\n  return path.split("/");\n}\n`,
    });
    const engine = await indexedEngine(root);
    const json = await engine.query({ task: TASK, budget: 4000, format: "json", explain: true });
    const { fragments } = JSON.parse(json.output) as {
      fragments: { path: string; score: number; scoreParts: { by: string; base: number } | null }[];
    };
    expect(fragments[0]?.path).toBe("src/upload.ts");
    for (const fragment of fragments) {
      expect(fragment.scoreParts?.by).toBe("model");
      expect(fragment.scoreParts?.base).toBeCloseTo(fragment.score, 3);
    }
    const markdown = await engine.query({ task: TASK, budget: 4000, explain: true });
    expect(markdown.output).toMatch(/^> score: model \d\.\d+$/m);
    const plain = await engine.query({ task: TASK, budget: 4000 });
    expect(plain.output).not.toMatch(/> score:/);
  });
});
