import type { MessagePort } from "node:worker_threads";
import type Database from "better-sqlite3";
import { cachedStatement } from "./statement-cache.js";

/** A chunk's id and its BM25 rank (lower is better, as FTS5 gives it). */
export interface RankedRow {
  readonly id: number;
  readonly rank: number;
}

/** One part of a split search: the match, its chunk id range [from, to) and how many rows. */
export interface RangeSearch {
  readonly weights: readonly number[];
  readonly match: string;
  readonly from: number;
  readonly to: number;
  readonly limit: number;
}

/**
 * The best `limit` chunks of one id range by BM25, ties by id. FTS5's bm25()
 * takes the row count, average field lengths and each term's document count
 * from the whole table whatever rows a query is limited to, so a range's
 * scores are those of the whole search and the best of all ranges merged are
 * the whole search's best.
 */
export function searchRange(db: Database.Database, search: RangeSearch): RankedRow[] {
  return cachedStatement(
    db,
    `SELECT rowid AS id, bm25(chunks_fts, ?, ?, ?, ?) AS rank FROM chunks_fts
     WHERE chunks_fts MATCH ? AND rowid >= ? AND rowid < ? ORDER BY rank, rowid LIMIT ?`,
  ).all(...search.weights, search.match, search.from, search.to, search.limit) as RankedRow[];
}

/** Rows of several ranges as one ranking: best first, ties by id, at most `limit`. */
export function mergeRanked(parts: readonly (readonly RankedRow[])[], limit: number): RankedRow[] {
  return parts
    .flat()
    .sort((a, b) => a.rank - b.rank || a.id - b.id)
    .slice(0, limit);
}

/**
 * The slots of a search thread's shared flags: 1 once it is ready; the id of
 * the last range it answered, set after the answer is posted.
 */
export const READY = 0;
export const ANSWERED = 1;

/** What a search thread starts with. */
export interface SearchThreadData {
  readonly file: string;
  /** Ranges come in and answers go out here. */
  readonly port: MessagePort;
  /** An Int32Array's buffer of READY and ANSWERED, each notified when set. */
  readonly flags: SharedArrayBuffer;
}

/** A range as a search thread is asked it: `id` comes back with the answer. */
export type RangeRequest = RangeSearch & { readonly id: number };

/** A range's rows and the milliseconds its search took. */
export interface RangeAnswer {
  readonly id: number;
  readonly rows: RankedRow[];
  readonly ms: number;
}

export type SearchThreadAnswer = RangeAnswer | { readonly id: number; readonly error: string };
