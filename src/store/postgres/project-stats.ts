import type { StoreStats } from "../../core/store.js";
import type { PgSession } from "./pg-session.js";

/** The project's resources, documents, chunks, bytes and languages, as `ctx status` counts them. */
export async function projectStats(
  session: PgSession,
): Promise<
  Pick<StoreStats, "resources" | "documents" | "chunks" | "bytes" | "lastIndexedAt" | "languages">
> {
  const { projectId } = session;
  const counts = await session.row<{
    resources: number;
    documents: number;
    chunks: number;
    bytes: number;
    lastIndexedAt: string | null;
  }>(
    `SELECT (SELECT count(*) FROM resources WHERE project_id = $1) AS resources,
            (SELECT count(*) FROM documents WHERE project_id = $1) AS documents,
            (SELECT count(*) FROM chunks WHERE project_id = $1) AS chunks,
            (SELECT coalesce(sum(size), 0)::bigint FROM documents WHERE project_id = $1) AS bytes,
            (SELECT max(last_indexed_at) FROM resources WHERE project_id = $1) AS "lastIndexedAt"`,
    [projectId],
  );
  const languages: Record<string, number> = {};
  const rows = await session.rows<{ language: string; n: number }>(
    `SELECT language, count(*) AS n FROM documents WHERE project_id = $1
     GROUP BY language ORDER BY n DESC, language COLLATE "C"`,
    [projectId],
  );
  for (const row of rows) languages[row.language] = row.n;
  return {
    resources: counts?.resources ?? 0,
    documents: counts?.documents ?? 0,
    chunks: counts?.chunks ?? 0,
    bytes: counts?.bytes ?? 0,
    lastIndexedAt: counts?.lastIndexedAt ?? null,
    languages,
  };
}
