import { cpSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BudgetTooSmallError, packToBudget } from "../../src/assemble/pack-to-budget.js";
import { rendererFor } from "../../src/assemble/renderers.js";
import type { BreakerRecord } from "../../src/core/breaker.js";
import type { Store } from "../../src/core/store.js";
import type { ContextStrategy } from "../../src/core/strategy.js";
import { DocumentChunker } from "../../src/ingest/chunk/chunk-document.js";
import { DEFAULT_CHUNK_LIMITS } from "../../src/ingest/chunk/chunk-limits.js";
import { DEFAULT_LIMITS } from "../../src/ingest/hydrate/discover-files.js";
import { InThreadPreparer } from "../../src/ingest/in-thread-preparer.js";
import { indexResources } from "../../src/ingest/index-resources.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { ProjectBreakers } from "../../src/strategies/breaker-board.js";
import { SimpleKeywordStrategy } from "../../src/strategies/builtins/simple-keyword.js";
import { StrategyRegistry } from "../../src/strategies/registry.js";
import { StrategyPipeline } from "../../src/strategies/strategy-pipeline.js";
import {
  DEFAULT_STRATEGY_SETTINGS,
  type StrategySettings,
} from "../../src/strategies/strategy-settings.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { tempDir } from "../helpers/temp-dir.js";
import {
  fileFragment,
  fixed,
  garbage,
  hanging,
  testStrategy,
  throwing,
} from "../helpers/test-strategies.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));
let store: Store;

beforeAll(async () => {
  const root = tempDir("ctx-pipeline-");
  cpSync(FIXTURES, root, { recursive: true });
  store = SqliteStore.open(join(tempDir("ctx-pipeline-db-"), "index.db"), { create: true });
  await indexResources([root], {
    store,
    limits: DEFAULT_LIMITS,
    preparerFor: () =>
      new InThreadPreparer(new DocumentChunker(DEFAULT_CHUNK_LIMITS, o200kCounter), "structural"),
  });
});

afterAll(async () => {
  await store.close();
});

function pipelineWith(
  strategies: readonly ContextStrategy[],
  settings: Partial<StrategySettings> = {},
  options: { now?: () => number; saved?: BreakerRecord[] } = {},
) {
  const registry = new StrategyRegistry();
  registry.register(new SimpleKeywordStrategy(o200kCounter), "built-in");
  for (const strategy of strategies) registry.register(strategy);
  const settingsFor = () => ({ ...DEFAULT_STRATEGY_SETTINGS, ...settings });
  const saved = options.saved ?? [];
  const breakers = new ProjectBreakers(
    settingsFor,
    new Map(),
    { save: async (record) => void saved.push(record) },
    options.now,
  );
  return {
    pipeline: new StrategyPipeline({ registry, settingsFor, counter: o200kCounter, breakers }),
    saved,
  };
}

const request = { task: "retry attempts backoff", budget: 2000 };

describe("the strategy pipeline", () => {
  it("combines several strategies, each with a share of the budget in proportion to confidence × quality", async () => {
    const other = fixed("other", [fileFragment("other", "notes.ts", 1, 5, 3)], 0.9);
    const { pipeline } = pipelineWith([other]);
    const output = await pipeline.run(request, { text: store.documents }, [
      "simple-keyword",
      "other",
    ]);
    const strategies = new Set(output.candidates.map((fragment) => fragment.strategy));
    expect(strategies).toEqual(new Set(["simple-keyword", "other"]));
    // keyword: 0.5 × 0.3 = 0.15; other: 0.9 × 0.5 = 0.45 → 1/4 and 3/4 of 2000.
    expect(output.allocation.get("simple-keyword")).toBe(500);
    expect(output.allocation.get("other")).toBe(1500);
    expect(output.runs.map((run) => [run.name, run.status])).toEqual([
      ["simple-keyword", "ran"],
      ["other", "ran"],
    ]);
  });

  it("answers within the timeout when strategies hang, throw or return garbage, and reports each error", async () => {
    const { pipeline } = pipelineWith([hanging(), throwing(), garbage()], { timeoutSeconds: 0.3 });
    const started = performance.now();
    const output = await pipeline.run(request, { text: store.documents }, [
      "simple-keyword",
      "hangs",
      "throws",
      "garbage",
    ]);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(300 + 250);
    const errors = Object.fromEntries(output.runs.map((run) => [run.name, run.errors]));
    expect(errors.hangs).toEqual(["timed out after 0.3 s"]);
    expect(errors.throws).toEqual(["index exploded"]);
    expect(errors.garbage).toEqual(["returned something other than an array of fragments"]);
    expect(errors["simple-keyword"]).toEqual([]);
    expect(output.candidates.length).toBeGreaterThan(0);
    expect(output.candidates.every((fragment) => fragment.strategy === "simple-keyword")).toBe(
      true,
    );
  });

  it("aborts a strategy through its signal at the timeout", async () => {
    let aborted = false;
    const polite = testStrategy("polite", (_request, _budget, signal) => {
      return new Promise((_, reject) => {
        signal?.addEventListener("abort", () => {
          aborted = true;
          reject(signal.reason);
        });
      });
    });
    const { pipeline } = pipelineWith([polite], { timeoutSeconds: 0.1 });
    await pipeline.run(request, { text: store.documents }, ["polite"]);
    expect(aborted).toBe(true);
  });

  it("drops malformed fragments and fragments past the budget, and says so", async () => {
    const malformed = fixed("sloppy", [
      fileFragment("sloppy", "a.ts", 1, 3, 1),
      { id: 42, content: null } as never,
      {
        ...fileFragment("sloppy", "b.ts", 1, 3, 1),
        source: { kind: "file", path: "b.ts", startLine: 5, endLine: 2 },
      } as never,
    ]);
    const greedy = fixed("greedy", [
      fileFragment("greedy", "big.ts", 1, 400, 1),
      fileFragment("greedy", "big2.ts", 1, 400, 1),
    ]);
    const { pipeline } = pipelineWith([malformed, greedy]);
    const output = await pipeline.run({ task: "x", budget: 3000 }, { text: store.documents }, [
      "sloppy",
      "greedy",
    ]);
    const runs = Object.fromEntries(output.runs.map((run) => [run.name, run]));
    expect(runs.sloppy?.errors).toEqual(["returned 2 malformed fragment(s); they were dropped"]);
    expect(runs.sloppy?.fragments).toBe(1);
    expect(runs.greedy?.errors[0]).toMatch(
      /returned 1 fragment\(s\) past the request's budget of 3000 tokens/,
    );
    expect(runs.greedy?.used).toBeLessThanOrEqual(3000);
  });

  it("opens a breaker after the threshold, half-opens after the cool-down, closes on success", async () => {
    let now = 1_000_000;
    let fail = true;
    const flaky = testStrategy("flaky", async () => {
      if (fail) throw new Error("backend down");
      return [fileFragment("flaky", "ok.ts", 1, 2, 1)];
    });
    const { pipeline, saved } = pipelineWith(
      [flaky],
      { circuitBreakerThreshold: 3, circuitBreakerCooldownSeconds: 30 },
      { now: () => now },
    );
    const enabled = ["simple-keyword", "flaky"];
    for (let i = 0; i < 3; i++) await pipeline.run(request, { text: store.documents }, enabled);
    expect(pipeline.breakers.state("flaky")).toBe("open");
    const skipped = await pipeline.run(request, { text: store.documents }, enabled);
    expect(skipped.runs.find((run) => run.name === "flaky")?.status).toBe("breaker-open");
    expect(saved.at(-1)).toMatchObject({ strategy: "flaky", failures: 3, openedAt: now });

    now += 30_000;
    expect(pipeline.breakers.state("flaky")).toBe("half-open");
    await pipeline.run(request, { text: store.documents }, enabled); // the trial fails: open again
    expect(pipeline.breakers.state("flaky")).toBe("open");

    now += 30_000;
    fail = false;
    const recovered = await pipeline.run(request, { text: store.documents }, enabled);
    expect(recovered.runs.find((run) => run.name === "flaky")?.status).toBe("ran");
    expect(pipeline.breakers.state("flaky")).toBe("closed");
  });

  it("falls back to simple-keyword when no enabled strategy can run", async () => {
    const shy = testStrategy("shy", async () => [], { confidence: 0 });
    const vectorOnly = testStrategy("vectors", async () => [], {
      capabilities: { usesText: false, usesVector: true },
    });
    const { pipeline } = pipelineWith([shy, vectorOnly]);
    const output = await pipeline.run(request, { text: store.documents }, ["shy", "vectors"]);
    expect(output.runs.map((run) => [run.name, run.status, run.fallback])).toEqual([
      ["shy", "declined", false],
      ["vectors", "no-backend", false],
      ["simple-keyword", "ran", true],
    ]);
    expect(output.candidates.length).toBeGreaterThan(0);
  });

  it("limits concurrent runs of a strategy to max_workers across requests", async () => {
    let running = 0;
    let peak = 0;
    const slow = testStrategy("slow", async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 30));
      running--;
      return [];
    });
    const { pipeline } = pipelineWith([slow], { maxWorkers: 2 });
    await Promise.all(
      Array.from({ length: 6 }, () => pipeline.run(request, { text: store.documents }, ["slow"])),
    );
    expect(peak).toBe(2);
  });
});

describe("packing what the pipeline returns", () => {
  const arbitraryFragments = (name: string) =>
    fc
      .array(
        fc.record({
          path: fc.constantFrom("a.ts", "b.ts", "c/d.ts"),
          start: fc.integer({ min: 1, max: 200 }),
          lines: fc.integer({ min: 1, max: 60 }),
          score: fc.double({ min: 0, max: 100, noNaN: true }),
        }),
        { maxLength: 25 },
      )
      .map((specs) =>
        specs.map((spec) =>
          fileFragment(name, spec.path, spec.start, spec.lines, spec.score, name),
        ),
      );

  it("never exceeds the budget and gives the same output on every run", async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryFragments("one"),
        arbitraryFragments("two"),
        fc.integer({ min: 60, max: 5000 }),
        fc.constantFrom("markdown", "xml", "json"),
        fc.boolean(),
        async (first, second, budget, format, explain) => {
          const { pipeline } = pipelineWith([fixed("one", first, 0.8), fixed("two", second, 0.3)]);
          const assemble = async () => {
            const { candidates, allocation, runs } = await pipeline.run(
              { task: "property", budget },
              { text: store.documents },
              ["one", "two", "simple-keyword"],
            );
            return packToBudget(candidates, {
              task: "property",
              budget,
              limit: budget,
              counter: o200kCounter,
              allocation,
              renderer: rendererFor(format, {
                explain,
                runs: runs.map((run) => ({ ...run, executionTimeMs: 0 })),
              }),
            });
          };
          let a: Awaited<ReturnType<typeof assemble>>;
          try {
            a = await assemble();
          } catch (error) {
            // Only a budget too small for the empty output (with its preamble) may be refused.
            expect(error).toBeInstanceOf(BudgetTooSmallError);
            expect(explain || budget < 60).toBe(true);
            return;
          }
          const b = await assemble();
          expect(o200kCounter.count(a.output)).toBeLessThanOrEqual(budget);
          expect(b.output).toBe(a.output);
        },
      ),
      { numRuns: 60 },
    );
  });
});
