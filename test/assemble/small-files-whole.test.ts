import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chunkFragment } from "../../src/assemble/chunk-fragments.js";
import {
  WHOLE_RULE,
  WHOLE_SCORE,
  withSmallFilesWhole,
} from "../../src/assemble/small-files-whole.js";
import { DocumentChunker } from "../../src/ingest/chunk/chunk-document.js";
import { DEFAULT_CHUNK_LIMITS } from "../../src/ingest/chunk/chunk-limits.js";
import { DEFAULT_LIMITS } from "../../src/ingest/hydrate/discover-files.js";
import { InThreadPreparer } from "../../src/ingest/in-thread-preparer.js";
import { indexResources } from "../../src/ingest/index-resources.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

interface JsonFragment {
  path: string;
  startLine: number;
  endLine: number;
  ranking: string[];
}

// A task about one function of a small file: the file's other functions match none of its
// words and call nothing of it, so no search or walk offers them.
const helper = (name: string, body: string) =>
  [
    `export function ${name}(value: number): number {`,
    ...Array.from({ length: 8 }, (_, i) => `  value = ${body}(value, ${i + 1});`),
    "  return value;",
    "}",
    "",
  ].join("\n");
const PRICING = [
  "export function applyDiscountCode(total: number, code: string): number {",
  '  if (code === "HALF") return total / 2;',
  "  return total;",
  "}",
  "",
  helper("roundCents", "Math.round"),
  helper("clampPrice", "Math.min"),
  helper("scaleForTax", "Math.max"),
].join("\n");
const PRICING_LINES = PRICING.split("\n").length;
/** Four lines each: a table over half of a 4,000-token budget. */
const TABLE_ENTRIES = 160;

const linesOf = (fragments: JsonFragment[], path: string): Set<number> => {
  const lines = new Set<number>();
  for (const fragment of fragments)
    if (fragment.path === path)
      for (let line = fragment.startLine; line <= fragment.endLine; line++) lines.add(line);
  return lines;
};

async function answer(budget: number): Promise<JsonFragment[]> {
  const root = tempDir();
  writeFiles(root, {
    "src/pricing.ts": PRICING,
    // A big file among the first: over half the budget, never shown whole.
    "src/table.ts": Array.from(
      { length: TABLE_ENTRIES },
      (_, i) =>
        `/** Entry ${i} of the table. */\nexport function normalizeEntry${i}(entry: string): string {\n  return entry.trim().slice(${i});\n}\n`,
    )
      .concat([
        "/** Lower-case codes are upper-cased. */\nexport function caseOfCodes(code: string): string {\n  return code.toUpperCase();\n}\n",
      ])
      .join("\n"),
    "docs/notes.md": "# Notes\n\nNothing about prices here.\n",
  });
  const engine = await indexedEngine(root);
  const result = await engine.query({
    task: "applyDiscountCode ignores lower-case codes",
    budget,
    format: "json",
    explain: true,
  });
  return (JSON.parse(result.output) as { fragments: JsonFragment[] }).fragments;
}

describe("a small file among the first of the ranking", () => {
  it("is shown whole, after what the task matched, where the budget allows", async () => {
    const fragments = await answer(4000);
    expect(fragments[0]?.path).toBe("src/pricing.ts");
    const shown = linesOf(fragments, "src/pricing.ts");
    // Every line of the file: the functions the task does not name included.
    for (let line = 1; line < PRICING_LINES; line++) expect(shown.has(line)).toBe(true);
    // The big file is not read whole: it is over a quarter of the budget.
    expect(linesOf(fragments, "src/table.ts").size).toBeGreaterThan(0);
    expect(linesOf(fragments, "src/table.ts").size).toBeLessThan(TABLE_ENTRIES * 4);
  });
});

describe("the rest of a first file", () => {
  it("is scored by how sure the ranking is of the file, so a sure file's rest comes before a weak tail", async () => {
    const root = tempDir("ctx-whole-");
    writeFiles(root, {
      "src/pricing.ts": PRICING,
      "src/tax.ts": PRICING.replace(/Discount/g, "Tax"),
    });
    const store = SqliteStore.open(join(tempDir("ctx-whole-db-"), "index.db"), { create: true });
    try {
      await indexResources([root], {
        store,
        limits: DEFAULT_LIMITS,
        preparerFor: () =>
          new InThreadPreparer(
            new DocumentChunker(DEFAULT_CHUNK_LIMITS, o200kCounter),
            "structural",
          ),
      });
      const resourceId = (await store.documents.listResources())[0]?.id ?? "";
      const chunkOf = async (path: string, score: number, which = 0) => {
        const chunks = await store.documents.getDocumentChunks(resourceId, path);
        expect(chunks.length).toBeGreaterThan(2);
        const chunk = chunks.at(which) as (typeof chunks)[number];
        return chunkFragment(chunk, score, "test", o200kCounter);
      };
      // A file the ranking is sure of, one it doubts, and a weak tail between the two rests.
      const sure = await chunkOf("src/pricing.ts", 0.6);
      const doubted = await chunkOf("src/tax.ts", 0.1);
      const tail = { ...doubted, id: "tail", score: 0.04 };
      const offered = await withSmallFilesWhole(
        [sure, doubted, tail],
        store.documents,
        o200kCounter,
        8000,
      );
      const rest = (path: string) =>
        offered.filter(
          (fragment) =>
            fragment.rank?.placed === WHOLE_RULE &&
            fragment.source.kind === "file" &&
            fragment.source.path === path,
        );
      expect(rest("src/pricing.ts").length).toBeGreaterThan(0);
      for (const fragment of rest("src/pricing.ts")) expect(fragment.score).toBeCloseTo(0.06);
      for (const fragment of rest("src/tax.ts")) expect(fragment.score).toBe(WHOLE_SCORE);
      const order = offered.map((fragment) => fragment.id);
      const sureRest = rest("src/pricing.ts").map((fragment) => order.indexOf(fragment.id));
      expect(Math.max(...sureRest)).toBeLessThan(order.indexOf("tail"));
      expect(
        Math.min(...rest("src/tax.ts").map((fragment) => order.indexOf(fragment.id))),
      ).toBeGreaterThan(order.indexOf("tail"));
    } finally {
      await store.close();
    }
  });
});
