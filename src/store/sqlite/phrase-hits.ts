import type Database from "better-sqlite3";
import { cachedStatement } from "./statement-cache.js";

/** Phrases whose counts are kept per connection: a few days of questions' words. */
const MAX_KEPT = 20_000;

interface Kept {
  /** The connection's own changes and others' commits when these counts were read. */
  readonly changes: number;
  readonly version: number;
  /** FTS5's row count, null where its record could not be read. */
  readonly rows: number | null;
  readonly hits: Map<string, number>;
}

const kept = new WeakMap<Database.Database, Kept>();

/**
 * How many chunks hold each phrase, and the row count bm25() divides by, for
 * the index as this connection reads it now. Counting a common word's chunks
 * reads its whole list (a quarter of a code index for "function"), so the
 * counts are kept until the index changes: a write on this connection or a
 * commit by another. Read inside the caller's transaction, so that they are
 * those of the reads that follow.
 */
export function phraseStatistics(db: Database.Database): {
  readonly rows: number | null;
  hits(phrase: string): number;
} {
  const state = cachedStatement(
    db,
    "SELECT total_changes() AS changes, (SELECT data_version FROM pragma_data_version) AS version",
  ).get() as { changes: number; version: number };
  let current = kept.get(db);
  if (!current || current.changes !== state.changes || current.version !== state.version) {
    current = { ...state, rows: fullTextRowCount(db), hits: new Map() };
    kept.set(db, current);
  }
  const { hits } = current;
  return {
    rows: current.rows,
    hits(phrase: string): number {
      let count = hits.get(phrase);
      if (count === undefined) {
        count = (
          cachedStatement(
            db,
            "SELECT count(*) AS hits FROM chunks_fts WHERE chunks_fts MATCH ?",
          ).get(phrase) as { hits: number }
        ).hits;
        // The oldest first out: a Map iterates in insertion order.
        if (hits.size >= MAX_KEPT) hits.delete(hits.keys().next().value as string);
        hits.set(phrase, count);
      }
      return count;
    },
  };
}

/**
 * The row count bm25() divides by: the first varint of FTS5's averages record
 * (row 1 of its data table), in SQLite's varint format. Not `count(*)`: this
 * contentless table goes on counting deleted rows until it is rebuilt, and
 * bm25() with it. Null when the record is missing or unreadable.
 */
function fullTextRowCount(db: Database.Database): number | null {
  const row = cachedStatement(db, "SELECT block FROM chunks_fts_data WHERE id = 1").get() as
    | { block: Uint8Array | null }
    | undefined;
  const block = row?.block;
  if (!(block instanceof Uint8Array)) return null;
  let value = 0;
  for (let i = 0; i < 9 && i < block.length; i++) {
    const byte = block[i] as number;
    if (i === 8) return value * 256 + byte;
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) return value > 0 ? value : null;
  }
  return null;
}
