import type { FieldWeights, TextHit, TextQuery } from "../../core/text-backend.js";
import { CHUNK_COLUMNS, type ChunkRow, toStoredChunk } from "../chunk-rows.js";
import { bm25Sql, queryTokens } from "./bm25.js";
import type { PgSession } from "./pg-session.js";
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
