import type Database from "better-sqlite3";
import type {
  CachedContext,
  ChunkContextState,
  ChunkContextUpdate,
  ContextStatus,
  ContextStore,
} from "../../core/store.js";
import type { TextCompaction } from "./text-compaction.js";
import { inWriteTransaction } from "./write-transaction.js";

/** Chunks by context status; chunks without a context count as "none". */
export function contextCounts(db: Database.Database): Record<string, number> {
  const rows = db
    .prepare(
      `SELECT CASE WHEN context_status IS NULL THEN 'none'
                   WHEN context_status LIKE 'no context:%' THEN 'no context'
                   ELSE context_status END AS status, count(*) AS n
       FROM chunks GROUP BY status ORDER BY status`,
    )
    .all() as { status: string; n: number }[];
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

/** Chunks' contexts and the context cache, over one connection. */
export function sqliteContexts(db: Database.Database, compaction: TextCompaction): ContextStore {
  return {
    /**
     * Context state of every chunk (or of those whose key is not `unlessKey`), with
     * the hashes its cache key is made of.
     */
    async listChunkContextStates(unlessKey?: string | null): Promise<ChunkContextState[]> {
      // Written as ranges, so SQLite reads them from the index instead of every chunk
      // (keys are text, and all text sorts at or after '').
      const filter =
        unlessKey === undefined
          ? ""
          : unlessKey === null
            ? "WHERE c.context_key >= ''"
            : "WHERE (c.context_key IS NULL OR c.context_key < ? OR c.context_key > ?)";
      const args = typeof unlessKey === "string" ? [unlessKey, unlessKey] : [];
      const rows = db
        .prepare(
          `SELECT c.id AS chunkId, c.document_id AS documentId, d.resource_id AS resourceId, d.path,
              d.hash AS documentHash, c.hash AS chunkHash, c.context_key AS contextKey,
              c.context_status AS contextStatus
       FROM chunks c JOIN documents d ON d.id = c.document_id
       ${filter}
       ORDER BY d.resource_id, d.path, c.ordinal`,
        )
        .all(...args) as (Omit<ChunkContextState, "contextStatus"> & {
        contextStatus: string | null;
      })[];
      return rows.map((row) => ({
        ...row,
        contextStatus: row.contextStatus as ContextStatus | null,
      }));
    },
    /**
     * Writes new contexts and rewrites the chunks' full-text rows, in one transaction,
     * counting the rewritten rows (those of chunks still holding the text they were
     * for) towards the next compaction.
     */
    async updateChunkContexts(updates: readonly ChunkContextUpdate[]): Promise<void> {
      const setChunk = db.prepare(
        `UPDATE chunks SET context = ?, context_key = ?, context_status = ?, embed_hash = ?
     WHERE id = ? AND hash = ?`,
      );
      const dropFts = db.prepare("DELETE FROM chunks_fts WHERE rowid = ?");
      const addFts = db.prepare(
        "INSERT INTO chunks_fts (rowid, path, symbols, context, body) VALUES (?, ?, ?, ?, ?)",
      );
      return inWriteTransaction(db, () => {
        // All deletes before all inserts: an FTS5 delete flushes the inserts pending
        // before it, so alternating them wrote a segment per chunk.
        const written = updates.filter((update) => {
          const { changes } = setChunk.run(
            update.context,
            update.contextKey,
            update.contextStatus,
            update.embedHash,
            update.chunkId,
            update.chunkHash,
          );
          if (changes > 0) dropFts.run(update.chunkId);
          return changes > 0;
        });
        for (const { chunkId, search } of written) {
          addFts.run(chunkId, search.path, search.symbols, search.context, search.body);
        }
        compaction.recordWrite(written.length);
      });
    },
    async getCachedContexts(keys: readonly string[]): Promise<Map<string, string>> {
      const found = new Map<string, string>();
      if (keys.length === 0) return found;
      const rows = db
        .prepare(
          "SELECT key, context FROM context_cache WHERE key IN (SELECT value FROM json_each(?))",
        )
        .all(JSON.stringify(keys)) as { key: string; context: string }[];
      for (const row of rows) found.set(row.key, row.context);
      return found;
    },
    async putCachedContexts(entries: readonly CachedContext[]): Promise<void> {
      const insert = db.prepare(
        `INSERT INTO context_cache (key, context, generator, model, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET context = excluded.context`,
      );
      const now = new Date().toISOString();
      inWriteTransaction(db, () => {
        for (const entry of entries)
          insert.run(entry.key, entry.context, entry.generator, entry.model, now);
      });
    },
  };
}
