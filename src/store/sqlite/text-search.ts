import type Database from "better-sqlite3";
import type { FieldWeights, TextHit, TextQuery } from "../../core/text-backend.js";
import { CHUNK_COLUMNS, type ChunkRow, toStoredChunk } from "../chunk-rows.js";
import { pathFilter } from "./path-filter.js";
import { prunedSearch } from "./pruned-search.js";
import type { RankedRow } from "./search-range.js";
import type { SearchThreads } from "./search-threads.js";
import { cachedStatement } from "./statement-cache.js";

/**
 * The store's keyword search: its field weights, the threads it may split a
 * search across, and whether it may leave chunks unscored.
 */
export class KeywordSearch {
  /** BM25 weights of path, symbols, context and body, in the FTS table's column order. */
  private readonly weights: readonly number[];

  constructor(
    private readonly db: Database.Database,
    weights: FieldWeights,
    private readonly options: SearchOptions,
  ) {
    this.weights = [weights.path, weights.symbols, weights.context, weights.body];
  }

  search(query: TextQuery): TextHit[] {
    return searchChunks(this.db, this.weights, query, this.options);
  }

  prepareThreads(): Promise<boolean> {
    return this.options.threads.prepare(this.db);
  }

  close(): Promise<void> {
    return this.options.threads.close();
  }
}

/** How a search may go about its ranking; the hits are the same either way. */
export interface SearchOptions {
  /** Threads to split a large search across. */
  readonly threads: SearchThreads;
  /**
   * Whether chunks that cannot reach the hits may go unscored (see
   * prunedSearch). The hits are the same, up to FTS5's near-zero shares of
   * words in most chunks; false scores every match, as a check of the split
   * search needs.
   */
  readonly prune: boolean;
}

/**
 * BM25 over the chunks' full-text fields, best first, ties by chunk id. With
 * no path filter, chunks holding only common terms are left unscored where
 * they cannot reach the hits, or else the search is split across the threads
 * when they take it (a large index).
 */
function searchChunks(
  db: Database.Database,
  weights: readonly number[],
  query: TextQuery,
  { threads, prune }: SearchOptions,
): TextHit[] {
  if (query.terms.length === 0 || query.limit <= 0) return [];
  const phrases = query.terms.map(quotedPhrase);
  const match = phrases.join(" OR ");
  const prefixes = query.pathPrefixes ?? [];
  if (prefixes.length === 0) {
    const pruned = prune ? prunedSearch(db, weights, phrases, query.limit) : null;
    if (pruned) return hitsOf(db, pruned);
    const split = threads.search(db, weights, match, query.limit);
    if (split) return hitsOf(db, split);
    // The best `limit` ids by rank (ties by id) first, then only their rows: the join stays out of the ranking.
    // bm25() called with the weights ranks a third faster than the same weights set by `rank MATCH`.
    const ranked = cachedStatement(
      db,
      `SELECT rowid AS id, bm25(chunks_fts, ?, ?, ?, ?) AS rank FROM chunks_fts
       WHERE chunks_fts MATCH ? ORDER BY rank, rowid LIMIT ?`,
    ).all(...weights, match, query.limit) as RankedRow[];
    return hitsOf(db, ranked);
  }
  // With a path filter the search cannot stop at `limit` chunks: it filters them all.
  const paths = pathFilter(prefixes);
  const rows = db
    .prepare(
      `SELECT ${CHUNK_COLUMNS}, -hits.rank AS score
       FROM (SELECT rowid, bm25(chunks_fts, ?, ?, ?, ?) AS rank FROM chunks_fts
             WHERE chunks_fts MATCH ?) AS hits
       JOIN chunks c ON c.id = hits.rowid
       JOIN documents d ON d.id = c.document_id
       WHERE ${paths.sql}
       ORDER BY hits.rank, c.id
       LIMIT ?`,
    )
    .all(...weights, match, ...paths.args, query.limit) as (ChunkRow & { score: number })[];
  return rows.map((row) => ({ chunk: toStoredChunk(row), score: row.score }));
}

/** A term as an FTS5 phrase, quoted so that no character of it is read as syntax. */
function quotedPhrase(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** Ranked chunk ids as hits, in that order; a chunk removed meanwhile is left out. */
function hitsOf(db: Database.Database, ranked: readonly RankedRow[]): TextHit[] {
  const byId = new Map(
    chunkRows(
      db,
      ranked.map((row) => row.id),
    ).map((row) => [row.id, row]),
  );
  return ranked.flatMap(({ id, rank }) => {
    const row = byId.get(id);
    return row ? [{ chunk: toStoredChunk(row), score: -rank }] : [];
  });
}

/**
 * Ids up to this many are bound one by one (one compiled statement per count):
 * a query's hundred hits' rows came back in two thirds of the time the same
 * ids took as one JSON array for `json_each`.
 */
const MAX_BOUND_IDS = 200;

/** The chunks of these ids that exist, by id. */
export function chunkRows(db: Database.Database, chunkIds: readonly number[]): ChunkRow[] {
  if (chunkIds.length === 0) return [];
  if (chunkIds.length <= MAX_BOUND_IDS) {
    return cachedStatement(
      db,
      `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id
       WHERE c.id IN (${"?,".repeat(chunkIds.length - 1)}?) ORDER BY c.id`,
    ).all(...chunkIds) as ChunkRow[];
  }
  return cachedStatement(
    db,
    `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id
     WHERE c.id IN (SELECT value FROM json_each(?)) ORDER BY c.id`,
  ).all(JSON.stringify(chunkIds)) as ChunkRow[];
}
