import type Database from "better-sqlite3";
import type { SearchText } from "../../core/store.js";
import type { StoredChunk } from "../../core/types.js";
import { CHUNK_COLUMNS, type ChunkRow, toStoredChunk } from "../chunk-rows.js";
import { RebuildLease } from "./rebuild-lease.js";
import { inWriteTransaction } from "./write-transaction.js";

/** Where the count of full-text rows deleted since the last compaction is kept. */
const DELETED_ROWS_KEY = "fts_deleted_rows";
/** Where the count of full-text rows written since the index's segments were last merged is kept. */
const UNMERGED_ROWS_KEY = "fts_unmerged_rows";

/**
 * Deleted rows that make compaction worth it: a quarter of the index, at least
 * 50. Until then BM25 counts the deleted rows too (FTS5 does not lower a
 * contentless table's row count and average lengths on delete; three full
 * rewrites of three.js changed 5 of 100 top-10 results), and queries over an
 * index with as many deleted rows as live ones took 1.7 times as long. Not
 * sooner: rebuilding costs about what indexing the text did (0.8 s for
 * three.js), time a serving process takes from the queries it answers.
 */
const COMPACT_SHARE = 0.25;
const COMPACT_MIN_ROWS = 50;

/**
 * Rows written since the last merge that make merging the full-text index's
 * segments into one worth it: a quarter of the index, at least 2,000 (a first
 * run, a branch switch). FTS5 writes a segment per transaction and merges only
 * some of them as it goes; at 96,404 chunks of eight npm packages, merged after
 * the first run, searches took 16 % less time at the median, for 1.1 s of
 * merging at the end of a 62 s run.
 */
const MERGE_SHARE = 0.25;
const MERGE_MIN_ROWS = 2000;

/** Documents indexed per transaction while rebuilding; queries run in between. */
const REBUILD_BATCH_DOCUMENTS = 100;

/** The full-text table as migration 1 creates it, under `name`. */
function fullTextTable(name: string): string {
  return `CREATE VIRTUAL TABLE ${name} USING fts5(
    path, symbols, context, body,
    content = '', contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  INSERT INTO ${name} (${name}, rank) VALUES ('deletemerge', 100);`;
}

/**
 * Counts deleted and written full-text rows; rebuilds the index once enough
 * were deleted, else merges its segments once enough were written.
 */
export class TextCompaction {
  private readonly addDeleted: Database.Statement;
  private readonly addUnmerged: Database.Statement;
  /** Bumped by every write to the full-text index from this connection. */
  private writes = 0;

  constructor(private readonly db: Database.Database) {
    this.addDeleted = db.prepare(
      `INSERT INTO ctx_meta (key, value) VALUES ('${DELETED_ROWS_KEY}', CAST(? AS INTEGER))
       ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + CAST(excluded.value AS INTEGER)`,
    );
    this.addUnmerged = db.prepare(
      `INSERT INTO ctx_meta (key, value) VALUES ('${UNMERGED_ROWS_KEY}', CAST(? AS INTEGER))
       ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + CAST(excluded.value AS INTEGER)`,
    );
  }

  /**
   * Records a write to the full-text index that deleted `deletedRows` rows and
   * inserted `insertedRows` (inside its transaction).
   */
  recordWrite(deletedRows: number, insertedRows = 0): void {
    this.writes++;
    if (deletedRows > 0) this.addDeleted.run(deletedRows);
    if (insertedRows > 0) this.addUnmerged.run(insertedRows);
  }

  /** Whether a rebuild or a merge of the segments is worth it now. */
  isDue(): boolean {
    return this.due() !== null;
  }

  /** A rebuild once enough rows were deleted; else a merge once enough were written. */
  private due(): "rebuild" | "merge" | null {
    const { chunks } = this.db.prepare("SELECT count(*) AS chunks FROM chunks").get() as {
      chunks: number;
    };
    const deleted = this.counted(DELETED_ROWS_KEY);
    if (deleted > 0 && deleted >= Math.max(COMPACT_MIN_ROWS, chunks * COMPACT_SHARE))
      return "rebuild";
    const unmerged = this.counted(UNMERGED_ROWS_KEY);
    if (unmerged > 0 && unmerged >= Math.max(MERGE_MIN_ROWS, chunks * MERGE_SHARE)) return "merge";
    return null;
  }

  private counted(key: string): number {
    const row = this.db.prepare("SELECT value FROM ctx_meta WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return Number(row?.value ?? 0);
  }

  /**
   * Rebuilds the full-text index from the stored chunks into a new table, a
   * batch of documents per transaction so queries keep being answered from the
   * old one, then swaps the tables in one short transaction. Gives up (until
   * the next run) when the chunks change meanwhile, here or in another process.
   */
  async compact(
    searchTexts: (documentChunks: readonly StoredChunk[]) => SearchText[],
  ): Promise<void> {
    if (!this.isDue()) return;
    const lease = new RebuildLease(this.db);
    // Another process is rebuilding: its result serves this one too.
    if (!lease.take()) return;
    try {
      // Again with the lease: a rebuild that just ended elsewhere leaves nothing to do.
      const due = this.due();
      if (due === "rebuild") await this.rebuild(searchTexts, lease);
      else if (due === "merge") this.merge();
    } finally {
      lease.release();
    }
  }

  /** All of the index's segments merged into one, in one transaction. */
  private merge(): void {
    inWriteTransaction(this.db, () => {
      this.db.exec("INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')");
      this.db.prepare("DELETE FROM ctx_meta WHERE key = ?").run(UNMERGED_ROWS_KEY);
    });
  }

  private async rebuild(
    searchTexts: (documentChunks: readonly StoredChunk[]) => SearchText[],
    lease: RebuildLease,
  ): Promise<void> {
    const { db } = this;
    const writes = this.writes;
    const version = () => db.pragma("data_version", { simple: true }) as number;
    // A side table left by a rebuild that died is dropped: only the lease holder builds one.
    inWriteTransaction(db, () =>
      db.exec(`DROP TABLE IF EXISTS chunks_fts_next; ${fullTextTable("chunks_fts_next")}`),
    );
    const startVersion = version();
    const unchanged = () => this.writes === writes && version() === startVersion;
    const insert = db.prepare(
      "INSERT INTO chunks_fts_next (rowid, path, symbols, context, body) VALUES (?, ?, ?, ?, ?)",
    );
    const documentChunks = db.prepare(
      `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id
       WHERE c.document_id = ? ORDER BY c.ordinal`,
    );
    const documents = (
      db.prepare("SELECT id FROM documents ORDER BY id").all() as { id: number }[]
    ).map((document) => document.id);
    for (let start = 0; start < documents.length; start += REBUILD_BATCH_DOCUMENTS) {
      const ours = inWriteTransaction(db, () => {
        if (!lease.renew()) return false;
        for (const id of documents.slice(start, start + REBUILD_BATCH_DOCUMENTS)) {
          const stored = (documentChunks.all(id) as ChunkRow[]).map(toStoredChunk);
          searchTexts(stored).forEach((search, index) => {
            const chunk = stored[index] as StoredChunk;
            insert.run(chunk.id, search.path, search.symbols, search.context, search.body);
          });
        }
        return true;
      });
      // Taken over after it expired: the side table is the new holder's now.
      if (!ours) return;
      await new Promise((resolve) => setImmediate(resolve));
      if (!unchanged()) {
        dropSideTable(db);
        return;
      }
    }
    inWriteTransaction(db, () =>
      db.exec("INSERT INTO chunks_fts_next (chunks_fts_next) VALUES ('optimize')"),
    );
    // Immediate: the write lock first, so no other process can commit between the check and the swap.
    const outcome = inWriteTransaction(db, () => {
      if (!lease.renew()) return "taken over";
      if (!unchanged()) return "changed";
      db.exec("DROP TABLE chunks_fts; ALTER TABLE chunks_fts_next RENAME TO chunks_fts");
      db.prepare("DELETE FROM ctx_meta WHERE key IN (?, ?)").run(
        DELETED_ROWS_KEY,
        UNMERGED_ROWS_KEY,
      );
      return "swapped";
    });
    if (outcome === "changed") dropSideTable(db);
  }
}

function dropSideTable(db: Database.Database): void {
  inWriteTransaction(db, () => db.exec("DROP TABLE IF EXISTS chunks_fts_next"));
}
