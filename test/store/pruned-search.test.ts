import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_FIELD_WEIGHTS } from "../../src/core/text-backend.js";
import { phraseStatistics } from "../../src/store/sqlite/phrase-hits.js";
import { prunedSearch } from "../../src/store/sqlite/pruned-search.js";
import type { RankedRow } from "../../src/store/sqlite/search-range.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { document } from "../helpers/store-documents.js";
import { tempDir } from "../helpers/temp-dir.js";

const WEIGHTS = [
  DEFAULT_FIELD_WEIGHTS.path,
  DEFAULT_FIELD_WEIGHTS.symbols,
  DEFAULT_FIELD_WEIGHTS.context,
  DEFAULT_FIELD_WEIGHTS.body,
];

/** Words from common (in most chunks) to rare (in a few), as in code: "value" beside "setCookie". */
const WORDS = Array.from({ length: 40 }, (_, i) => `word${i}`);

/** A deterministic stream of numbers in [0, 1). */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** One chunk's text: word i in it with chance 0.9 / (i + 1), some words many times, lengths apart. */
function chunkText(index: number, next: () => number): string {
  const words: string[] = [];
  for (const [rank, word] of WORDS.entries()) {
    if (next() < 0.9 / (rank + 1)) {
      const times = 1 + Math.floor(next() * next() * 6);
      for (let t = 0; t < times; t++) words.push(word);
    }
  }
  const filler = Array.from({ length: Math.floor(next() * 30) }, (_, i) => `pad${i % 7}`);
  return `function f${index}() {\n  // ${[...words, ...filler].join(" ")}\n  return ${index % 5};\n}`;
}

const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const handle of opened.splice(0)) await handle.close();
});

async function filledIndex(count: number, seed = 7): Promise<{ file: string }> {
  const file = join(tempDir(), "index.db");
  const store = SqliteStore.open(file, { create: true, searchThreads: 1 });
  opened.push(store);
  const resource = await store.documents.ensureResource("/repo", "git");
  const next = numbers(seed);
  await store.documents.writeDocuments(
    Array.from({ length: count }, (_, i) =>
      document(resource.id, `src/${WORDS[i % 9]}/file${i}.ts`, chunkText(i, next)),
    ),
  );
  return { file };
}

function reader(file: string): Database.Database {
  const db = new Database(file, { readonly: true });
  opened.push(db);
  return db;
}

/** Every match scored: what the pruned search must give. */
function everyMatchRanked(db: Database.Database, phrases: string[], limit: number): RankedRow[] {
  return db
    .prepare(
      `SELECT rowid AS id, bm25(chunks_fts, ?, ?, ?, ?) AS rank FROM chunks_fts
       WHERE chunks_fts MATCH ? ORDER BY rank, rowid LIMIT ?`,
    )
    .all(...WEIGHTS, phrases.join(" OR "), limit) as RankedRow[];
}

/**
 * The pruned search's rows against every match's: a phrase in more than half
 * the chunks (or in none) is left out of its scores, so each rank may be off
 * by that phrase's share (under 2.2e-6 each) and chunks that close may change
 * places; no other difference.
 */
function expectRanking(
  rows: readonly RankedRow[],
  expected: readonly RankedRow[],
  phrases: number,
) {
  const close = 2.2e-6 * phrases;
  expect(rows.length).toBe(expected.length);
  for (const [i, row] of rows.entries()) {
    expect(Math.abs(row.rank - (expected[i] as RankedRow).rank)).toBeLessThanOrEqual(close);
  }
  const last = expected.at(-1)?.rank ?? 0;
  const clearlyIn = (list: readonly RankedRow[]) =>
    new Set(list.filter((row) => row.rank < last - close).map((row) => row.id));
  // The hits clearly above the last one's score are the same chunks, each scored within `close`.
  expect(clearlyIn(rows)).toEqual(clearlyIn(expected));
  const expectedRanks = new Map(expected.map((row) => [row.id, row.rank]));
  for (const row of rows) {
    const rank = expectedRanks.get(row.id);
    if (rank !== undefined) expect(Math.abs(row.rank - rank)).toBeLessThanOrEqual(close);
  }
}

function randomQuery(next: () => number): string[] {
  const size = 2 + Math.floor(next() * 6);
  const words = new Set<string>();
  while (words.size < size) {
    // Common words more often, as a question's "value" and "function" are.
    const word = WORDS[Math.floor(next() * next() * WORDS.length)] as string;
    words.add(next() < 0.05 ? "absentword" : word);
  }
  return [...words].map((word) => `"${word}"`);
}

describe("pruned keyword search", () => {
  it("gives every match's ranking (its rows and ranks, up to the shares of words in most chunks) and leaves chunks out", async () => {
    const { file } = await filledIndex(3000);
    const db = reader(file);
    const next = numbers(11);
    const queries = 300;
    let pruned = 0;
    for (let i = 0; i < queries; i++) {
      const phrases = randomQuery(next);
      const limit = [1, 5, 20, 100, 400][i % 5] as number;
      const expected = everyMatchRanked(db, phrases, limit);
      const rows = prunedSearch(db, WEIGHTS, phrases, limit);
      if (rows === null) continue;
      pruned++;
      expectRanking(rows, expected, phrases.length);
    }
    // Most of these queries mix common and rare words: most must have been pruned, or the check proves little.
    expect(pruned).toBeGreaterThan(queries / 2);
  });

  it("gives up rather than guess: one word, rare words only, a negative weight", async () => {
    const { file } = await filledIndex(600);
    const db = reader(file);
    expect(prunedSearch(db, WEIGHTS, ['"word0"'], 10)).toBeNull();
    expect(prunedSearch(db, WEIGHTS, ['"word38"', '"word39"'], 10)).toBeNull();
    expect(prunedSearch(db, [1, 1, -1, 1], ['"word0"', '"word1"', '"word30"'], 10)).toBeNull();
    const mixed = ['"word0"', '"word1"', '"word30"'];
    expectRanking(
      prunedSearch(db, WEIGHTS, mixed, 10) ?? [],
      everyMatchRanked(db, mixed, 10),
      mixed.length,
    );
  });

  it("counts again after the index changes, through this connection or another", async () => {
    const file = join(tempDir(), "index.db");
    const store = SqliteStore.open(file, { create: true, searchThreads: 1 });
    opened.push(store);
    const resource = await store.documents.ensureResource("/repo", "git");
    const write = (prefix: string, count: number, text: string) =>
      store.documents.writeDocuments(
        Array.from({ length: count }, (_, i) =>
          document(resource.id, `src/${prefix}${i}.ts`, `${text} // ${prefix}${i}`),
        ),
      );
    // "alpha" in nearly every chunk: left out of the candidates, as worth nothing.
    await write("common", 1000, "alpha");
    await write("rare", 30, "beta");
    const db = reader(file);
    const phrases = ['"alpha"', '"beta"'];
    const terms = ["alpha", "beta"];
    expectRanking(prunedSearch(db, WEIGHTS, phrases, 5) ?? [], everyMatchRanked(db, phrases, 5), 2);
    await store.documents.searchText({ terms, limit: 5 });
    // Now "alpha" is in three chunks only, four times each: those three are the best hits.
    const commons = (await store.documents.listDocuments(resource.id)).filter((doc) =>
      doc.path.startsWith("src/common"),
    );
    await store.documents.removeDocuments(commons.map((doc) => doc.id));
    await write("other", 1000, "gamma");
    await write("strong", 3, "alpha alpha alpha alpha");
    const expected = everyMatchRanked(db, phrases, 5);
    const documents = await store.documents.listDocuments(resource.id);
    expect(expected.slice(0, 3).map(({ id }) => id)).toEqual(
      (await store.documents.getChunks(expected.slice(0, 3).map(({ id }) => id)))
        .filter((chunk) => chunk.path.startsWith("src/strong"))
        .map((chunk) => chunk.id),
    );
    expect(documents.length).toBe(30 + 1000 + 3);
    // The row count is bm25()'s: FTS5's own record, which in a contentless table goes on counting
    // deleted rows until the table is rebuilt. The 1,033 rows there are would make the bounds too small.
    expect(phraseStatistics(db).rows).toBe(1030 + 1000 + 3);
    // Another connection's commit (the store wrote them). Counts kept from before would leave
    // "alpha" out again and miss the three; counted anew, nothing can be left out.
    expect(prunedSearch(db, WEIGHTS, phrases, 5) ?? expected).toEqual(expected);
    // This connection's own writes.
    const hits = await store.documents.searchText({ terms, limit: 5 });
    expect(hits.map((hit) => [hit.chunk.id, -hit.score])).toEqual(
      expected.map(({ id, rank }) => [id, rank]),
    );
  });
});
