import { createHash } from "node:crypto";
import { embedText } from "../../core/embed-text.js";
import { StoreError } from "../../core/errors.js";
import type { EmbeddingWork, VectorStore } from "../../core/store.js";
import type { VectorHit } from "../../core/text-backend.js";
import type { ChunkChecks } from "../chunk-checks.js";
import { CHUNK_COLUMNS, type ChunkRow, toStoredChunk } from "../chunk-rows.js";
import { type PgSession, type Queryable, rowsOf } from "./pg-session.js";
import { pgPathFilter } from "./rows.js";
import { vectorLiteral } from "./vector-literal.js";

/** pgvector's HNSW search looks at no more than this many candidates (`hnsw.ef_search`). */
const MAX_EF_SEARCH = 1000;

/** The vector table of an embedder, null when it never wrote one. */
async function vectorTable(
  client: Queryable,
  location: string,
  embedderId: string,
  dimensions: number,
): Promise<string | null> {
  const [row] = await rowsOf<{ dimensions: number; vector_table: string }>(
    client,
    "SELECT dimensions, vector_table FROM embedders WHERE id = $1",
    [embedderId],
  );
  if (!row) return null;
  if (dimensions > 0 && row.dimensions !== dimensions) {
    throw new StoreError(
      location,
      `embedder ${embedderId} wrote ${row.dimensions}-dimension vectors, now ${dimensions}: its id must change with its dimension`,
    );
  }
  return row.vector_table;
}

/**
 * Creates the embedder's table on first use: one row per project and embedded
 * text, searched through an HNSW index over cosine distance.
 */
async function createVectorTable(
  client: Queryable,
  location: string,
  embedderId: string,
  dimensions: number,
): Promise<string> {
  // Two writers of a new embedder would both create the table: one at a time.
  await client.query("SELECT pg_advisory_xact_lock(hashtext('ctx embedders'))");
  const existing = await vectorTable(client, location, embedderId, dimensions);
  if (existing) return existing;
  const table = `vectors_${createHash("sha1").update(embedderId).digest("hex").slice(0, 16)}`;
  await client.query(
    `CREATE TABLE ${table} (
       project_id integer NOT NULL,
       embed_hash text NOT NULL,
       embedding vector(${dimensions}) NOT NULL,
       PRIMARY KEY (project_id, embed_hash))`,
  );
  await client.query(
    `CREATE INDEX ${table}_hnsw ON ${table} USING hnsw (embedding vector_cosine_ops)`,
  );
  await client.query("INSERT INTO embedders (id, dimensions, vector_table) VALUES ($1, $2, $3)", [
    embedderId,
    dimensions,
    table,
  ]);
  return table;
}

type SimilarRow = ChunkRow & { similarity: number };

/**
 * Chunk vectors per embedder over one connection (pgvector, one HNSW-indexed
 * table per embedder shared by the schema's projects). `iterativeScan`: the
 * server's pgvector can keep scanning until this project's neighbours are found.
 */
export function pgVectors(
  session: PgSession,
  { checks, iterativeScan }: { readonly checks: ChunkChecks; readonly iterativeScan: boolean },
): VectorStore {
  return {
    available: true,
    async listUnembedded(embedderId: string, limit: number): Promise<EmbeddingWork[]> {
      const table = await vectorTable(session.pool, session.location, embedderId, 0);
      const missing = table
        ? `AND NOT EXISTS (SELECT 1 FROM ${table} v WHERE v.project_id = $1 AND v.embed_hash = c.embed_hash)`
        : "";
      const rows = await session.rows<{
        embedHash: string;
        context: string | null;
        content: string;
      }>(
        `SELECT w.embed_hash AS "embedHash", c.context, c.content
     FROM (SELECT c.embed_hash, min(c.id) AS first FROM chunks c
           WHERE c.project_id = $1 AND c.embed_hash <> '' ${missing}
           GROUP BY c.embed_hash ORDER BY first LIMIT $2) w
     JOIN chunks c ON c.id = w.first
     ORDER BY w.first`,
        [session.projectId, limit],
      );
      return rows.map((row) => ({
        embedHash: row.embedHash,
        text: embedText(row.context, row.content),
      }));
    },
    async putEmbeddings(
      embedderId: string,
      dimensions: number,
      entries: readonly { embedHash: string; vector: Float32Array }[],
    ): Promise<void> {
      for (const entry of entries) {
        if (entry.vector.length !== dimensions) {
          throw new StoreError(
            session.location,
            `a ${entry.vector.length}-dimension vector for a ${dimensions}-dimension embedder`,
          );
        }
      }
      await session.transaction(async (client) => {
        const table =
          (await vectorTable(client, session.location, embedderId, dimensions)) ??
          (await createVectorTable(client, session.location, embedderId, dimensions));
        if (entries.length === 0) return;
        await client.query(
          `INSERT INTO ${table} (project_id, embed_hash, embedding)
       SELECT $1, h, v::vector FROM unnest($2::text[], $3::text[]) AS t(h, v)
       ON CONFLICT (project_id, embed_hash) DO NOTHING`,
          [
            session.projectId,
            entries.map((entry) => entry.embedHash),
            entries.map((entry) => vectorLiteral(entry.vector, session.location)),
          ],
        );
      });
    },
    async searchVectors(
      embedderId: string,
      vector: Float32Array,
      limit: number,
      pathPrefixes: readonly string[] = [],
    ): Promise<VectorHit[]> {
      if (limit <= 0) return [];
      const table = await vectorTable(session.pool, session.location, embedderId, vector.length);
      if (!table) return [];
      const literal = vectorLiteral(vector, session.location);
      let rows: SimilarRow[];
      if (pathPrefixes.length > 0) {
        // Exact over the chunks under the prefixes: nearest neighbours of the whole
        // project, filtered afterwards, can leave a small folder with nothing.
        const paths = pgPathFilter(pathPrefixes, 4);
        rows = await session.rows<SimilarRow>(
          `SELECT ${CHUNK_COLUMNS}, 1 - (v.embedding <=> $2::vector) AS similarity
       FROM chunks c
       JOIN documents d ON d.id = c.document_id
       JOIN ${table} v ON v.project_id = $1 AND v.embed_hash = c.embed_hash
       WHERE c.project_id = $1 AND ${paths.sql}
       ORDER BY similarity DESC, c.id
       LIMIT $3`,
          [session.projectId, literal, limit, ...paths.params],
        );
      } else {
        // Chunks sharing a text share a vector, so neighbours map to more chunks: ask for more.
        const k = Math.min(4096, limit * 2);
        rows = await session.transaction(async (client) => {
          await client.query(
            `SET LOCAL hnsw.ef_search = ${Math.min(MAX_EF_SEARCH, Math.max(40, k))}`,
          );
          // The index holds every project's vectors: keep scanning until this project's k are found.
          if (iterativeScan) await client.query("SET LOCAL hnsw.iterative_scan = strict_order");
          return rowsOf<SimilarRow>(
            client,
            `SELECT ${CHUNK_COLUMNS}, 1 - near.distance AS similarity
         FROM (SELECT embed_hash, embedding <=> $2::vector AS distance FROM ${table}
               WHERE project_id = $1 ORDER BY embedding <=> $2::vector LIMIT $3) AS near
         JOIN chunks c ON c.project_id = $1 AND c.embed_hash = near.embed_hash
         JOIN documents d ON d.id = c.document_id
         ORDER BY near.distance, c.id
         LIMIT $4`,
            [session.projectId, literal, k, limit],
          );
        });
      }
      return checks.intactHits(
        rows.map((row) => ({ chunk: toStoredChunk(row), similarity: row.similarity })),
      );
    },
    async embeddingCoverage(embedderId: string): Promise<{ embedded: number; total: number }> {
      const table = await vectorTable(session.pool, session.location, embedderId, 0);
      const row = table
        ? await session.row<{ embedded: number; total: number }>(
            `SELECT count(*) AS total, count(v.embed_hash) AS embedded FROM chunks c
         LEFT JOIN ${table} v ON v.project_id = c.project_id AND v.embed_hash = c.embed_hash
         WHERE c.project_id = $1`,
            [session.projectId],
          )
        : await session.row<{ embedded: number; total: number }>(
            "SELECT count(*) AS total, 0 AS embedded FROM chunks WHERE project_id = $1",
            [session.projectId],
          );
      return row ?? { embedded: 0, total: 0 };
    },
    /** Drops the project's vectors that no chunk uses any more; returns how many. */
    async pruneEmbeddings(): Promise<number> {
      return session.transaction(async (client) => {
        const tables = await rowsOf<{ vector_table: string }>(
          client,
          "SELECT vector_table FROM embedders",
        );
        let count = 0;
        for (const { vector_table: table } of tables) {
          const result = await client.query(
            `DELETE FROM ${table} v WHERE v.project_id = $1 AND NOT EXISTS (
           SELECT 1 FROM chunks c WHERE c.project_id = $1 AND c.embed_hash = v.embed_hash)`,
            [session.projectId],
          );
          count += result.rowCount ?? 0;
        }
        return count;
      });
    },
  };
}
