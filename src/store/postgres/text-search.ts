import type { ChunkContextUpdate } from "../../core/store.js";
import type { FieldWeights, TextHit, TextQuery } from "../../core/text-backend.js";
import { CHUNK_COLUMNS, type ChunkRow, toStoredChunk } from "../chunk-rows.js";
import { bm25Sql, countFields, queryTokens } from "./bm25.js";
import { addTextStats } from "./document-writes.js";
import type { PgSession } from "./pg-session.js";
import { rowsOf } from "./pg-session.js";
import { pgPathFilter } from "./rows.js";

const CHUNK_TERMS = {
  table: "chunk_terms",
  id: "chunk_id",
  tf: ["tf_path", "tf_symbols", "tf_context", "tf_body"],
  length: "text_length",
  rows: "text_chunks",
  tokens: "text_tokens",
} as const;

/**
 * BM25 over the chunks' four fields with the field weights, ranked as the
 * SQLite store's FTS5 ranks a fresh index: the same tokens, IDF, lengths and
 * constants. Best first, ties by chunk id.
 */
export async function searchChunks(
  session: PgSession,
  weights: FieldWeights,
  query: TextQuery,
): Promise<TextHit[]> {
  if (query.terms.length === 0 || query.limit <= 0) return [];
  const tokens = queryTokens(query.terms);
  if (tokens.length === 0) return [];
  const prefixes = query.pathPrefixes ?? [];
  const paths = pgPathFilter(prefixes, 8);
  const filter =
    prefixes.length === 0
      ? ""
      : `WHERE p.chunk_id IN (SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id
                             WHERE c.project_id = $1 AND ${paths.sql})`;
  const ranked = await session.rows<{ id: number; score: number }>(
    `${bm25Sql(CHUNK_TERMS, filter)} ORDER BY score DESC, id LIMIT $7`,
    [
      session.projectId,
      tokens,
      weights.path,
      weights.symbols,
      weights.context,
      weights.body,
      query.limit,
      ...(prefixes.length > 0 ? paths.params : []),
    ],
  );
  const byId = new Map(
    (
      await chunkRows(
        session,
        ranked.map((row) => row.id),
      )
    ).map((row) => [row.id, row]),
  );
  return ranked.flatMap(({ id, score }) => {
    const row = byId.get(id);
    return row ? [{ chunk: toStoredChunk(row), score }] : [];
  });
}

/** The project's chunks of these ids that exist, by id. */
export async function chunkRows(
  session: PgSession,
  chunkIds: readonly number[],
): Promise<ChunkRow[]> {
  if (chunkIds.length === 0) return [];
  return session.rows<ChunkRow>(
    `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id
     WHERE c.project_id = $1 AND c.id = ANY($2::bigint[]) ORDER BY c.id`,
    [session.projectId, chunkIds],
  );
}

/**
 * Writes new contexts and re-indexes those chunks' terms, in one transaction,
 * for chunks still holding the text the context was written for.
 */
export async function updateChunkContexts(
  session: PgSession,
  updates: readonly ChunkContextUpdate[],
): Promise<void> {
  if (updates.length === 0) return;
  const { projectId } = session;
  await session.transaction(async (client) => {
    // The project's row first: writers of one project take turns, as in writeDocuments.
    await client.query("SELECT 1 FROM ctx_projects WHERE id = $1 FOR UPDATE", [projectId]);
    let tokenChange = 0;
    for (const update of updates) {
      const counts = countFields([
        update.search.path,
        update.search.symbols,
        update.search.context,
        update.search.body,
      ]);
      const [old] = await rowsOf<{ length: number }>(
        client,
        `UPDATE chunks c SET context = $3, context_key = $4, context_status = $5, embed_hash = $6, text_length = $7
         FROM chunks o WHERE o.id = c.id AND c.id = $2 AND c.project_id = $1 AND c.hash = $8
         RETURNING o.text_length AS length`,
        [
          projectId,
          update.chunkId,
          update.context,
          update.contextKey,
          update.contextStatus,
          update.embedHash,
          counts.length,
          update.chunkHash,
        ],
      );
      if (!old) continue;
      tokenChange += counts.length - old.length;
      await client.query("DELETE FROM chunk_terms WHERE chunk_id = $1", [update.chunkId]);
      const terms = [...counts.terms];
      if (terms.length > 0) {
        await client.query(
          `INSERT INTO chunk_terms (project_id, term, chunk_id, tf_path, tf_symbols, tf_context, tf_body, text_length)
           SELECT $1, term, $2, tf_path, tf_symbols, tf_context, tf_body, $7
           FROM unnest($3::text[], $4::int[], $5::int[], $6::int[], $8::int[]) AS t(term, tf_path, tf_symbols, tf_context, tf_body)`,
          [
            projectId,
            update.chunkId,
            terms.map(([term]) => term),
            terms.map(([, c]) => c[0]),
            terms.map(([, c]) => c[1]),
            terms.map(([, c]) => c[2]),
            counts.length,
            terms.map(([, c]) => c[3]),
          ],
        );
      }
    }
    await addTextStats(client, projectId, 0, tokenChange);
  });
}
