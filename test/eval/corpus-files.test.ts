import { describe, expect, it } from "vitest";
import { StructuralContextGenerator } from "../../src/contextualize/structural-generator.js";
import type { ContextFragment } from "../../src/core/fragment.js";
import { readBeirDataset } from "../../src/eval/beir.js";
import { corpusFiles, UnitLocator } from "../../src/eval/corpus-files.js";
import { runEval } from "../../src/eval/run-eval.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { defaultRanker } from "../helpers/eval-ranker.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const LEDGER = [
  'import json\n\nclass LedgerBook:\n    """Keeps the postings of one account."""',
  "    def settle(self, postings):\n        return sum(postings)",
];
const CACHE = [
  "class CacheEviction:\n    pass",
  "    def evict_least_recently_used(self):\n        pass",
];

/** Two documents cut into two units each, and one unit with no document. */
function datasetFolder(): string {
  const dir = tempDir();
  const unit = (id: string, text: string, docId?: string) =>
    JSON.stringify({ _id: id, title: "", text, ...(docId ? { doc_id: docId } : {}) });
  writeFiles(dir, {
    "corpus.jsonl": [
      unit("ledger_0", LEDGER[0] as string, "ledger"),
      unit("cache_0", CACHE[0] as string, "cache"),
      unit("ledger_1", LEDGER[1] as string, "ledger"),
      unit("cache_1", CACHE[1] as string, "cache"),
      unit("loose", "fn retry_with_backoff(attempts: u32) {}"),
    ].join("\n"),
    "documents.jsonl": [
      JSON.stringify({ _id: "ledger", text: LEDGER.join("\n") }),
      JSON.stringify({ _id: "cache", text: CACHE.join("\n") }),
    ].join("\n"),
    "queries.jsonl": [
      JSON.stringify({ _id: "q1", text: "settle the postings" }),
      JSON.stringify({ _id: "q2", text: "evict least recently used" }),
      JSON.stringify({ _id: "q3", text: "retry with backoff" }),
    ].join("\n"),
    "qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\tledger_1\t1\nq2\tcache_1\t1\nq3\tloose\t1\n",
  });
  return dir;
}

describe("an evaluation corpus as files", () => {
  it("keeps a document's units together, in corpus order, each on its own lines", async () => {
    const files = corpusFiles(await readBeirDataset(datasetFolder()));
    expect(
      files.map((file) => ({
        path: file.path,
        units: file.units.map((place) => [place.unit.id, place.startLine, place.endLine]),
      })),
    ).toEqual([
      {
        path: "ledger",
        units: [
          ["ledger_0", 1, 4],
          ["ledger_1", 5, 6],
        ],
      },
      {
        path: "cache",
        units: [
          ["cache_0", 1, 2],
          ["cache_1", 3, 4],
        ],
      },
      { path: "loose", units: [["loose", 1, 1]] },
    ]);
    expect(files[0]?.text).toBe(LEDGER.join("\n"));

    // A fragment is scored as the units its lines show: one, both, or (not a file's) itself.
    const locator = new UnitLocator(files);
    const at = (path: string, startLine: number, endLine: number) =>
      ({
        id: `${path}#${startLine}`,
        source: { kind: "file", resourceId: "r", path, startLine, endLine, language: "text" },
      }) as ContextFragment;
    expect(locator.unitsOf(at("ledger", 5, 6))).toEqual(["ledger_1"]);
    expect(locator.unitsOf(at("ledger", 3, 5))).toEqual(["ledger_0", "ledger_1"]);
    expect(locator.unitsOf(at("loose", 1, 1))).toEqual(["loose"]);
  });

  it("is indexed as one file per document and scored unit by unit, contexts included", async () => {
    const dataset = await readBeirDataset(datasetFolder());
    const pipeline = await defaultRanker(
      ["simple-keyword", "breadth-depth-navigator"],
      dataset.dir,
    );
    const sources: string[] = [];
    const report = await runEval(dataset, {
      label: "default",
      rank: async (store, query, depth) => {
        const fragments = await pipeline(store, query, depth);
        const first = fragments[0]?.source;
        if (first?.kind === "file") sources.push(`${first.path}:${first.startLine}`);
        return fragments;
      },
      ks: [1, 5],
      counter: o200kCounter,
      openStore: (file) => SqliteStore.open(file, { create: true }),
      contextualize: new StructuralContextGenerator(o200kCounter),
    });
    expect(sources).toEqual(["ledger:5", "cache:3", "loose:1"]);
    expect(report.passAtK[1]).toBe(100);
    // Each document's units got their contexts from the whole document; the one-line unit
    // with no document has no structure to describe.
    expect(report.contexts).toEqual({
      generator: "structural",
      written: 4,
      empty: 1,
      failed: 0,
    });
    expect(report.missed).toEqual([]);
  });
});
