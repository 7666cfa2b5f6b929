import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import { embedText } from "../../core/embed-text.js";
import { StoreError } from "../../core/errors.js";
import type { EmbeddingWork, VectorStore } from "../../core/store.js";
import type { VectorHit } from "../../core/text-backend.js";
import type { ChunkChecks } from "../chunk-checks.js";
import { CHUNK_COLUMNS, type ChunkRow, toStoredChunk } from "../chunk-rows.js";
import type { AnnIndexes } from "./ann-index.js";
import { pathFilter } from "./path-filter.js";
import { inWriteTransaction } from "./write-transaction.js";

/** The vector table of an embedder, created on first use with its dimension. */
function vectorTable(
  db: Database.Database,
  embedderId: string,
  dimensions: number,
  create: boolean,
): string | null {
  const row = db
    .prepare("SELECT dimensions, vector_table FROM embedders WHERE id = ?")
    .get(embedderId) as { dimensions: number; vector_table: string } | undefined;
  if (row) {
    if (dimensions > 0 && row.dimensions !== dimensions) {
      throw new StoreError(
        "index",
        `embedder ${embedderId} wrote ${row.dimensions}-dimension vectors, now ${dimensions}: its id must change with its dimension`,
      );
    }
    return row.vector_table;
  }
  if (!create) return null;
  const table = `vectors_${createHash("sha1").update(embedderId).digest("hex").slice(0, 16)}`;
  db.exec(
    `CREATE VIRTUAL TABLE ${table} USING vec0(embedding float[${dimensions}] distance_metric=cosine)`,
  );
  db.prepare("INSERT INTO embedders (id, dimensions, vector_table) VALUES (?, ?, ?)").run(
    embedderId,
    dimensions,
    table,
  );
  return table;
}

type SimilarRow = ChunkRow & { similarity: number };

function nearestOverall(
  db: Database.Database,
  table: string,
  embedderId: string,
  vector: Float32Array,
  limit: number,
  ann: AnnIndexes,
): SimilarRow[] {
  // Chunks sharing a text share a vector, so neighbours map to more chunks: ask for more.
  const k = Math.min(4096, limit * 2);
  const approximate = ann.search(db, table, embedderId, vector.length, vector, k);
  const nearest = approximate
    ? `(SELECT json_extract(value, '$.rowid') AS rowid, json_extract(value, '$.distance') AS distance FROM json_each(?))`
    : `(SELECT rowid, distance FROM ${table} WHERE embedding MATCH ? AND k = ?)`;
  const args = approximate ? [JSON.stringify(approximate)] : [vector, k];
  return db
    .prepare(
      `SELECT ${CHUNK_COLUMNS}, 1 - near.distance AS similarity
       FROM ${nearest} AS near
       JOIN embedding_rows e ON e.rowid = near.rowid
       JOIN chunks c ON c.embed_hash = e.embed_hash
       JOIN documents d ON d.id = c.document_id
       ORDER BY near.distance, c.id
       LIMIT ?`,
    )
    .all(...args, limit) as SimilarRow[];
}

/**
 * Exact search over the chunks under the prefixes only: nearest neighbours of
 * the whole index, filtered afterwards, can leave a small folder with nothing.
 */
function nearestUnder(
  db: Database.Database,
  table: string,
  embedderId: string,
  vector: Float32Array,
  limit: number,
  pathPrefixes: readonly string[],
): SimilarRow[] {
  const paths = pathFilter(pathPrefixes);
  return db
    .prepare(
      `SELECT ${CHUNK_COLUMNS}, 1 - vec_distance_cosine(v.embedding, ?) AS similarity
       FROM chunks c
       JOIN documents d ON d.id = c.document_id
       JOIN embedding_rows e ON e.embedder = ? AND e.embed_hash = c.embed_hash
       JOIN ${table} v ON v.rowid = e.rowid
       WHERE ${paths.sql}
       ORDER BY similarity DESC, c.id
       LIMIT ?`,
    )
    .all(vector, embedderId, ...paths.args, limit) as SimilarRow[];
}

/** What the vector store works with beside its connection. */
export interface SqliteVectorParts {
  /** Whether the sqlite-vec extension loaded: without it there are no vectors. */
  readonly available: boolean;
  readonly ann: AnnIndexes;
  readonly checks: ChunkChecks;
  readonly location: string;
}

/** Chunk vectors per embedder over one connection (sqlite-vec tables, HNSW indexes beside large ones). */
export function sqliteVectors(
  db: Database.Database,
  { available, ann, checks, location }: SqliteVectorParts,
): VectorStore {
  return {
    available,
    async listUnembedded(embedderId: string, limit: number): Promise<EmbeddingWork[]> {
      const rows = db
        .prepare(
          `SELECT c.embed_hash AS embedHash, c.context, c.content FROM chunks c
       WHERE c.embed_hash != '' AND NOT EXISTS (
         SELECT 1 FROM embedding_rows e WHERE e.embedder = ? AND e.embed_hash = c.embed_hash)
       GROUP BY c.embed_hash ORDER BY min(c.id) LIMIT ?`,
        )
        .all(embedderId, limit) as { embedHash: string; context: string | null; content: string }[];
      return rows.map((row) => ({
        embedHash: row.embedHash,
        text: embedText(row.context, row.content),
      }));
    },
    /** Writes vectors, and tells the ANN index of their table. */
    async putEmbeddings(
      embedderId: string,
      dimensions: number,
      entries: readonly { embedHash: string; vector: Float32Array }[],
    ): Promise<void> {
      if (!available) {
        throw new StoreError(
          location,
          "vectors are unavailable: the sqlite-vec extension did not load on this platform",
        );
      }
      const added: { rowid: number; vector: Float32Array }[] = [];
      let vectorTableName = "";
      inWriteTransaction(db, () => {
        const table = vectorTable(db, embedderId, dimensions, true) as string;
        vectorTableName = table;
        const addRow = db.prepare(
          "INSERT OR IGNORE INTO embedding_rows (embedder, embed_hash) VALUES (?, ?)",
        );
        const addVector = db.prepare(`INSERT INTO ${table} (rowid, embedding) VALUES (?, ?)`);
        for (const entry of entries) {
          if (entry.vector.length !== dimensions) {
            throw new StoreError(
              "index",
              `a ${entry.vector.length}-dimension vector for a ${dimensions}-dimension embedder`,
            );
          }
          const { changes, lastInsertRowid } = addRow.run(embedderId, entry.embedHash);
          if (changes > 0) {
            addVector.run(BigInt(lastInsertRowid), entry.vector);
            added.push({ rowid: Number(lastInsertRowid), vector: entry.vector });
          }
        }
      });
      ann.added(vectorTableName, added);
    },
    async searchVectors(
      embedderId: string,
      vector: Float32Array,
      limit: number,
      pathPrefixes: readonly string[] = [],
    ): Promise<VectorHit[]> {
      if (!available) return [];
      const table = vectorTable(db, embedderId, vector.length, false);
      if (!table || limit <= 0) return [];
      const rows =
        pathPrefixes.length > 0
          ? nearestUnder(db, table, embedderId, vector, limit, pathPrefixes)
          : nearestOverall(db, table, embedderId, vector, limit, ann);
      return checks.intactHits(
        rows.map((row) => ({ chunk: toStoredChunk(row), similarity: row.similarity })),
      );
    },
    /** Chunks whose text has a vector from the embedder, of all chunks. */
    async embeddingCoverage(embedderId: string): Promise<{ embedded: number; total: number }> {
      return db
        .prepare(
          `SELECT count(*) AS total, count(e.rowid) AS embedded FROM chunks c
       LEFT JOIN embedding_rows e ON e.embedder = ? AND e.embed_hash = c.embed_hash`,
        )
        .get(embedderId) as { embedded: number; total: number };
    },
    /** Drops vectors no chunk uses any more (their text changed or went away); returns how many. */
    async pruneEmbeddings(): Promise<number> {
      if (!available) return 0;
      const removed = new Map<string, number[]>();
      inWriteTransaction(db, () => {
        const embedders = db.prepare("SELECT id, vector_table FROM embedders").all() as {
          id: string;
          vector_table: string;
        }[];
        for (const { id, vector_table: table } of embedders) {
          const stale = db
            .prepare(
              `SELECT rowid FROM embedding_rows e WHERE e.embedder = ? AND NOT EXISTS (
             SELECT 1 FROM chunks c WHERE c.embed_hash = e.embed_hash)`,
            )
            .all(id) as { rowid: number }[];
          const dropVector = db.prepare(`DELETE FROM ${table} WHERE rowid = ?`);
          const dropRow = db.prepare("DELETE FROM embedding_rows WHERE rowid = ?");
          for (const { rowid } of stale) {
            dropVector.run(BigInt(rowid));
            dropRow.run(rowid);
          }
          if (stale.length > 0)
            removed.set(
              table,
              stale.map((row) => row.rowid),
            );
        }
      });
      let count = 0;
      for (const [table, rowids] of removed) {
        ann.removed(table, rowids);
        count += rowids.length;
      }
      return count;
    },
  };
}
