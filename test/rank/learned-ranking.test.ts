import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fitBias, fitPairwise, type TrainingQuery } from "../../bench/ranker/pairwise-logistic.js";
import { RANK_SIGNALS, type RankFeature } from "../../src/core/rank-signals.js";
import { TRAINED_RANKING_MODEL } from "../../src/rank/ranking-weights.js";
import { validateFragments } from "../../src/strategies/validate-fragments.js";
import { createTokenCounter } from "../../src/tokens/create-counter.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

interface Explained {
  fragments: {
    path: string;
    score: number;
    features: Record<string, number> | null;
    contributions: Record<string, number> | null;
  }[];
}

const FILES = {
  "src/session.ts": `/** Renews the session cookie before its maxAge runs out. */\nexport function renewSessionCookie(maxAge: number) {\n  return refreshCookie("session", maxAge);\n}\n`,
  "src/cookie.ts": `/** Sets a cookie with a maxAge. */\nexport function refreshCookie(name: string, maxAge: number) {\n  return \`\${name}; Max-Age=\${maxAge}\`;\n}\n`,
  "src/router.ts": `export function route(path: string) {\n  return path.split("/");\n}\n`,
};

describe("the learned ranking", () => {
  afterEach(() => {
    delete process.env.CTX_RANKING_MODEL;
  });

  it("learns which features make a candidate relevant, the same weights on every run", () => {
    // Relevance rises with feature 0, falls with feature 1; feature 2 is noise.
    const queries: TrainingQuery[] = [];
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    for (let q = 0; q < 40; q++) {
      const items = Array.from({ length: 12 }, () => {
        const x = [random(), random(), random()];
        const gain = 2 * (x[0] ?? 0) - (x[1] ?? 0) + 0.3 * (random() - 0.5) > 0.6 ? 1 : 0;
        return { x, gain };
      });
      queries.push({ items });
    }
    const weights = fitPairwise(queries, 3);
    expect(weights[0]).toBeGreaterThan(1);
    expect(weights[1]).toBeLessThan(-0.5);
    expect(Math.abs(weights[2] ?? 0)).toBeLessThan(Math.abs(weights[1] ?? 0) / 2);
    expect(fitPairwise(queries, 3)).toEqual(weights);
    // The bias makes the mean predicted probability the share of relevant candidates.
    const bias = fitBias(queries, weights);
    const items = queries.flatMap((query) => query.items);
    const predicted = items.reduce(
      (sum, item) =>
        sum +
        1 / (1 + Math.exp(-(bias + item.x.reduce((s, v, i) => s + v * (weights[i] ?? 0), 0)))),
      0,
    );
    const relevant = items.filter((item) => item.gain > 0).length;
    expect(predicted).toBeCloseTo(relevant, 3);
  });

  it("keeps every signal a strategy measured, and only finite numbers under known names", () => {
    const signals = Object.fromEntries(RANK_SIGNALS.map((name, i) => [name, i / 10]));
    const fragment = {
      id: "r:src/a.ts#L1-L2",
      source: { kind: "file", resourceId: "r", path: "src/a.ts", startLine: 1, endLine: 2 },
      content: "export const a = 1;\n",
      score: 1,
      signals: { ...signals, graph: Number.NaN, invented: 3 },
    };
    const [checked] = validateFragments(
      [fragment],
      "custom",
      createTokenCounter("estimate"),
    ).fragments;
    const { graph: _dropped, ...finite } = signals;
    expect(checked?.signals).toEqual(finite);
  });

  it("--explain shows each fragment's features and their parts of its score", async () => {
    const root = tempDir();
    writeFiles(root, FILES);
    const engine = await indexedEngine(root);
    const result = await engine.query({
      task: "renew the session cookie before maxAge",
      budget: 4000,
      format: "json",
      explain: true,
    });
    const { fragments } = JSON.parse(result.output) as Explained;
    expect(fragments[0]?.path).toBe("src/session.ts");
    for (const fragment of fragments) {
      const { features, contributions } = fragment;
      expect(features).not.toBeNull();
      expect(contributions).not.toBeNull();
      if (!features || !contributions) continue;
      for (const [name, value] of Object.entries(features)) {
        const weight = TRAINED_RANKING_MODEL.weights[name as RankFeature];
        expect(contributions[name]).toBeCloseTo(weight * value, 3);
      }
      const logOdds =
        TRAINED_RANKING_MODEL.bias + Object.values(contributions).reduce((a, b) => a + b, 0);
      expect(fragment.score).toBeCloseTo(1 / (1 + Math.exp(-logOdds)), 2);
    }
    expect(fragments[0]?.features?.keyword).toBe(1);
  });

  it("ranks with the model CTX_RANKING_MODEL names, and says which file is wrong", async () => {
    const root = tempDir();
    writeFiles(root, FILES);
    const engine = await indexedEngine(root);
    const task = "renew the session cookie before maxAge";
    const first = async () => {
      const result = await engine.query({ task, budget: 4000, format: "json" });
      return (JSON.parse(result.output) as Explained).fragments[0]?.path;
    };
    // A model that prefers what matches least puts the other file first.
    const upsideDown = join(root, "upside-down.json");
    writeFileSync(upsideDown, JSON.stringify({ bias: 0, weights: { keyword: -5 } }));
    process.env.CTX_RANKING_MODEL = upsideDown;
    expect(await first()).not.toBe("src/session.ts");

    const broken = join(root, "broken.json");
    writeFileSync(broken, "{ not json");
    process.env.CTX_RANKING_MODEL = broken;
    await expect(engine.query({ task, budget: 4000 })).rejects.toThrow(
      /broken\.json: cannot read the ranking model CTX_RANKING_MODEL names .*npm run train-ranker/,
    );
    delete process.env.CTX_RANKING_MODEL;
    expect(await first()).toBe("src/session.ts");
  });
});
