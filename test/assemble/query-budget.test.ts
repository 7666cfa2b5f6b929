import { cpSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BudgetTooSmallError } from "../../src/assemble/pack-to-budget.js";
import { OUTPUT_FORMATS } from "../../src/assemble/renderers.js";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { tempDir } from "../helpers/temp-dir.js";
import { fileFragment, fixed } from "../helpers/test-strategies.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));
let engine: ContextEngine;

beforeAll(async () => {
  const root = tempDir("ctx-query-");
  cpSync(FIXTURES, root, { recursive: true });
  engine = await ContextEngine.open({ start: root, cwd: root, env: { XDG_CONFIG_HOME: root } });
  await engine.index([root]);
});

afterAll(async () => {
  await engine.close();
});

const TASKS = [
  "how are retries configured",
  "RetryRunner run",
  "backoff delay attempts",
  "cache get",
  "x",
];

describe("ctx query under a budget", () => {
  it("never renders more tokens than the budget, in any format", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3000 }),
        fc.constantFrom(...OUTPUT_FORMATS),
        fc.constantFrom(...TASKS),
        async (budget, format, task) => {
          try {
            const result = await engine.query({ task, budget, format });
            expect(o200kCounter.count(result.output)).toBeLessThanOrEqual(budget);
            expect(result.tokensUsed).toBe(o200kCounter.count(result.output));
          } catch (error) {
            // Only a budget smaller than the empty output may be refused.
            expect(error).toBeInstanceOf(BudgetTooSmallError);
            expect(budget).toBeLessThan(60);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("gives byte-identical output for the same input and index", async () => {
    const first = await engine.query({ task: "retry attempts", budget: 1200, format: "markdown" });
    const second = await engine.query({ task: "retry attempts", budget: 1200, format: "markdown" });
    expect(second.output).toBe(first.output);
    expect(first.fragments.length).toBeGreaterThan(1);
  });

  it("prints the JSON shape agents rely on, ordered by score then path and line", async () => {
    const result = await engine.query({
      task: "retry attempts delay",
      budget: 4000,
      format: "json",
    });
    const parsed = JSON.parse(result.output) as {
      task: string;
      budget: number;
      tokensUsed: number;
      fragments: {
        id: string;
        path: string;
        startLine: number;
        endLine: number;
        score: number;
        tokens: number;
        content: string;
      }[];
    };
    expect(Object.keys(parsed)).toEqual(["task", "budget", "tokensUsed", "fragments"]);
    expect(parsed).toMatchObject({
      task: "retry attempts delay",
      budget: 4000,
      tokensUsed: result.tokensUsed,
    });
    expect(parsed.fragments.length).toBeGreaterThan(2);
    for (const fragment of parsed.fragments) {
      expect(Object.keys(fragment)).toEqual([
        "id",
        "path",
        "startLine",
        "endLine",
        "score",
        "tokens",
        "depth",
        "content",
      ]);
      expect(fragment.endLine).toBeGreaterThanOrEqual(fragment.startLine);
      expect(fragment.content.split("\n").length).toBe(fragment.endLine - fragment.startLine + 1);
    }
    for (let i = 1; i < parsed.fragments.length; i++) {
      const a = parsed.fragments[i - 1];
      const b = parsed.fragments[i];
      if (!a || !b) throw new Error("fragment missing");
      const ordered =
        a.score > b.score ||
        (a.score === b.score &&
          (a.path < b.path || (a.path === b.path && a.startLine < b.startLine)));
      expect(ordered, `${a.id} before ${b.id}`).toBe(true);
    }
  });

  it("merges adjacent chunks of one file into one fragment", async () => {
    const result = await engine.query({
      task: "RetryRunner constructor run attempts lastError",
      budget: 8000,
      paths: ["sample.ts"],
    });
    const ranges = result.fragments.map((fragment) =>
      fragment.source.kind === "file" ? [fragment.source.startLine, fragment.source.endLine] : [],
    );
    for (let i = 0; i < ranges.length; i++) {
      for (let j = 0; j < ranges.length; j++) {
        if (i === j) continue;
        const [startA = 0, endA = 0] = ranges[i] ?? [];
        const [startB = 0] = ranges[j] ?? [];
        // No two fragments of the file touch or overlap: they would have been merged.
        expect(startB > endA + 1 || startB < startA).toBe(true);
      }
    }
    expect(result.fragments.some((fragment) => fragment.chunkIds.length > 1)).toBe(true);
  });

  it("cuts the best fragment down rather than leave a small budget empty", async () => {
    const result = await engine.query({ task: "RetryRunner run", budget: 120, format: "markdown" });
    expect(result.fragments.length).toBeGreaterThan(0);
    expect(result.tokensUsed).toBeLessThanOrEqual(120);
  });
});

describe("strategies registered through the library", () => {
  it("run beside the built-ins when enabled for a query", async () => {
    const root = tempDir("ctx-api-");
    cpSync(FIXTURES, root, { recursive: true });
    const pinned = fixed("pinned", [fileFragment("pinned", "NOTES.md", 1, 3, 1, "note")], 0.9);
    const api = await ContextEngine.open({
      start: root,
      cwd: root,
      env: { XDG_CONFIG_HOME: root },
      strategies: [pinned],
    });
    try {
      await api.index([root]);
      const result = await api.query({
        task: "retry",
        budget: 2000,
        strategies: ["simple-keyword", "pinned"],
      });
      expect(result.fragments.some((fragment) => fragment.strategy === "pinned")).toBe(true);
      expect(result.provenance.map((run) => [run.name, run.status])).toEqual([
        ["simple-keyword", "ran"],
        ["pinned", "ran"],
      ]);
      expect(result.provenance.find((run) => run.name === "pinned")?.packedFragments).toBe(1);
    } finally {
      await api.close();
    }
  });
});
