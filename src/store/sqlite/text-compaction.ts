import type Database from "better-sqlite3";
import type { SearchText } from "../../core/store.js";
import type { StoredChunk } from "../../core/types.js";
import { RebuildLease } from "./rebuild-lease.js";
import { CHUNK_COLUMNS, type ChunkRow, toStoredChunk } from "./rows.js";
import { inWriteTransaction } from "./write-transaction.js";

/** Where the count of full-text rows deleted since the last compaction is kept. */
const DELETED_ROWS_KEY = "fts_deleted_rows";

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

/** Counts deleted full-text rows and rebuilds the index once they are enough. */
export class TextCompaction {
  private readonly addDeleted: Database.Statement;
  /** Bumped by every write to the full-text index from this connection. */
  private writes = 0;

  constructor(private readonly db: Database.Database) {
    this.addDeleted = db.prepare(
      `INSERT INTO ctx_meta (key, value) VALUES ('${DELETED_ROWS_KEY}', CAST(? AS INTEGER))
       ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + CAST(excluded.value AS INTEGER)`,
    );
  }

  /** Records a write to the full-text index that deleted `rows` rows (inside its transaction). */
  recordWrite(deletedRows: number): void {
    this.writes++;
    if (deletedRows > 0) this.addDeleted.run(deletedRows);
  }

  /** Whether enough rows were deleted since the last rebuild for one to be worth it. */
  isDue(): boolean {
    const row = this.db.prepare("SELECT value FROM ctx_meta WHERE key = ?").get(DELETED_ROWS_KEY) as
      | { value: string }
      | undefined;
    const deleted = Number(row?.value ?? 0);
    const { chunks } = this.db.prepare("SELECT count(*) AS chunks FROM chunks").get() as {
      chunks: number;
    };
    return deleted > 0 && deleted >= Math.max(COMPACT_MIN_ROWS, chunks * COMPACT_SHARE);
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
      if (this.isDue()) await this.rebuild(searchTexts, lease);
    } finally {
      lease.release();
    }
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
      db.prepare("DELETE FROM ctx_meta WHERE key = ?").run(DELETED_ROWS_KEY);
      return "swapped";
    });
    if (outcome === "changed") dropSideTable(db);
  }
}

function dropSideTable(db: Database.Database): void {
  inWriteTransaction(db, () => db.exec("DROP TABLE IF EXISTS chunks_fts_next"));
}
