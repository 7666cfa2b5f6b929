import type {
  CachedContext,
  ChunkContextState,
  ChunkContextUpdate,
  ContextStatus,
  ContextStore,
} from "../../core/store.js";
import { countFields } from "./bm25.js";
import { addTextStats } from "./document-writes.js";
import { type PgSession, rowsOf } from "./pg-session.js";

/** Chunks by context status; chunks without a context count as "none". */
export async function contextCounts(session: PgSession): Promise<Record<string, number>> {
  const rows = await session.rows<{ status: string; n: number }>(
    `SELECT status, count(*) AS n FROM (
       SELECT CASE WHEN context_status IS NULL THEN 'none'
                   WHEN context_status LIKE 'no context:%' THEN 'no context'
                   ELSE context_status END AS status
       FROM chunks WHERE project_id = $1) s
     GROUP BY status ORDER BY status COLLATE "C"`,
    [session.projectId],
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

/** Chunks' contexts and the context cache, over one connection. */
export function pgContexts(session: PgSession): ContextStore {
  return {
    async listChunkContextStates(unlessKey?: string | null): Promise<ChunkContextState[]> {
      const filter =
        unlessKey === undefined
          ? ""
          : unlessKey === null
            ? "AND c.context_key IS NOT NULL"
            : "AND (c.context_key IS NULL OR c.context_key <> $2)";
      const rows = await session.rows<
        Omit<ChunkContextState, "contextStatus"> & { contextStatus: string | null }
      >(
        `SELECT c.id AS "chunkId", c.document_id AS "documentId", d.resource_id AS "resourceId", d.path,
            d.hash AS "documentHash", c.hash AS "chunkHash", c.context_key AS "contextKey",
            c.context_status AS "contextStatus"
     FROM chunks c JOIN documents d ON d.id = c.document_id
     WHERE c.project_id = $1 ${filter}
     ORDER BY d.resource_id COLLATE "C", d.path COLLATE "C", c.ordinal`,
        typeof unlessKey === "string" ? [session.projectId, unlessKey] : [session.projectId],
      );
      return rows.map((row) => ({
        ...row,
        contextStatus: row.contextStatus as ContextStatus | null,
      }));
    },
    /**
     * Writes new contexts and re-indexes those chunks' terms, in one transaction,
     * for chunks still holding the text the context was written for.
     */
    async updateChunkContexts(updates: readonly ChunkContextUpdate[]): Promise<void> {
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
    },
    async getCachedContexts(keys: readonly string[]): Promise<Map<string, string>> {
      const found = new Map<string, string>();
      if (keys.length === 0) return found;
      const rows = await session.rows<{ key: string; context: string }>(
        "SELECT key, context FROM context_cache WHERE project_id = $1 AND key = ANY($2::text[])",
        [session.projectId, keys],
      );
      for (const row of rows) found.set(row.key, row.context);
      return found;
    },
    async putCachedContexts(entries: readonly CachedContext[]): Promise<void> {
      if (entries.length === 0) return;
      // The last entry of a key wins, as row-by-row upserts would have it.
      const unique = [...new Map(entries.map((entry) => [entry.key, entry])).values()];
      await session.rows(
        `INSERT INTO context_cache (project_id, key, context, generator, model, created_at)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
     ON CONFLICT (project_id, key) DO UPDATE SET context = excluded.context`,
        [
          session.projectId,
          unique.map((e) => e.key),
          unique.map((e) => e.context),
          unique.map((e) => e.generator),
          unique.map((e) => e.model),
          unique.map(() => new Date().toISOString()),
        ],
      );
    },
  };
}
