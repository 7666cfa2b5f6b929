import { describe, expect, it } from "vitest";
import { TRAINED_RANKING_MODEL } from "../../src/rank/ranking-weights.js";
import { Repo } from "../helpers/git-history.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

interface JsonFragment {
  path: string;
  features: Record<string, number> | null;
  contributions: Record<string, number> | null;
}

// Two files the task matches alike; which one it names no word of.
const handler = (name: string, extra: string) =>
  `export function ${name}(request: { retries: number }): number {\n  // retry the upload when the server drops the connection\n  return request.retries + ${extra};\n}\n`;
const FILES = {
  "src/alpha/upload.ts": handler("sendChunked", "1"),
  "src/zeta/upload.ts": handler("sendWhole", "2"),
};
const TASK = "retry the upload when the server drops the connection";

async function firstFiles(root: string): Promise<JsonFragment[]> {
  const engine = await indexedEngine(root);
  const result = await engine.query({ task: TASK, budget: 2000, format: "json", explain: true });
  return (JSON.parse(result.output) as { fragments: JsonFragment[] }).fragments;
}

describe("how often a file changed lately", () => {
  it("reads how much of the recent history changed each candidate's file, and scores it", async () => {
    const repo = new Repo();
    repo.commit("feat: two upload paths", FILES);
    for (let i = 0; i < 12; i++)
      repo.commit(`chore: tidy ${i}`, {
        "src/zeta/upload.ts": `${FILES["src/zeta/upload.ts"]}// ${i}\n`,
      });
    const fragments = await firstFiles(repo.root);
    const of = (path: string) => fragments.find((fragment) => fragment.path === path);
    // Changed by all 13 commits: log(1 + 100) / log(101); by 1 of 13: log(1 + 100 / 13) / log(101).
    expect(of("src/zeta/upload.ts")?.features?.recentChanges).toBeCloseTo(1, 4);
    expect(of("src/alpha/upload.ts")?.features?.recentChanges).toBeCloseTo(
      Math.log1p(100 / 13) / Math.log(101),
      3,
    );
    for (const path of Object.keys(FILES)) {
      const fragment = of(path);
      expect(fragment?.contributions?.recentChanges).toBeCloseTo(
        TRAINED_RANKING_MODEL.weights.recentChanges * (fragment?.features?.recentChanges ?? 0),
        3,
      );
    }
    expect(TRAINED_RANKING_MODEL.weights.recentChanges).toBeGreaterThan(0);
  });

  it("reads nothing where there is no history", async () => {
    const root = tempDir();
    writeFiles(root, FILES);
    const fragments = await firstFiles(root);
    expect(fragments.map((fragment) => fragment.path).sort()).toEqual(Object.keys(FILES).sort());
    for (const fragment of fragments) expect(fragment.features?.recentChanges ?? 0).toBe(0);
  });
});
