import { ulid } from "ulid";
import type { BreakerRecord } from "../../core/breaker.js";
import type {
  CachedContext,
  ChunkContextState,
  ContextStatus,
  ProjectRecord,
} from "../../core/store.js";
import {
  emptySkipCounts,
  type Resource,
  type ResourceKind,
  type SecretFile,
  type SkipCounts,
  type SkippedFile,
} from "../../core/types.js";
import { type ResourceRow, skippedColumn, toResource } from "../resource-rows.js";
import type { PgSession } from "./pg-session.js";
import { rowsOf } from "./pg-session.js";

// Resources, leases, metadata, project settings, breakers and the context cache:
// small per-project records, each query scoped by the session's project.

const RESOURCE_COLUMNS = "id, root, kind, added_at, last_indexed_at, skipped";

export async function listResources(session: PgSession): Promise<Resource[]> {
  const rows = await session.rows<ResourceRow>(
    `SELECT ${RESOURCE_COLUMNS} FROM resources WHERE project_id = $1 ORDER BY added_at COLLATE "C", id COLLATE "C"`,
    [session.projectId],
  );
  return rows.map(toResource);
}

/** The resource for a root, added when new (two processes adding it at once agree on one). */
export async function ensureResource(
  session: PgSession,
  root: string,
  kind: ResourceKind,
): Promise<Resource> {
  return session.transaction(async (client) => {
    const fresh: ResourceRow = {
      id: ulid(),
      root,
      kind,
      added_at: new Date().toISOString(),
      last_indexed_at: null,
      skipped: JSON.stringify(emptySkipCounts()),
    };
    await client.query(
      `INSERT INTO resources (project_id, id, root, kind, added_at, last_indexed_at, skipped)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (project_id, root) DO UPDATE SET kind = excluded.kind`,
      [session.projectId, fresh.id, root, kind, fresh.added_at, null, fresh.skipped],
    );
    const [row] = await rowsOf<ResourceRow>(
      client,
      `SELECT ${RESOURCE_COLUMNS} FROM resources WHERE project_id = $1 AND root = $2`,
      [session.projectId, root],
    );
    return toResource(row as ResourceRow);
  });
}

export async function moveResource(
  session: PgSession,
  resourceId: string,
  root: string,
): Promise<boolean> {
  return session.transaction(async (client) => {
    const taken = await rowsOf(
      client,
      "SELECT 1 FROM resources WHERE project_id = $1 AND root = $2 AND id <> $3",
      [session.projectId, root, resourceId],
    );
    if (taken.length > 0) return false;
    await client.query("UPDATE resources SET root = $1 WHERE project_id = $2 AND id = $3", [
      root,
      session.projectId,
      resourceId,
    ]);
    return true;
  });
}

export async function recordRun(
  session: PgSession,
  resourceId: string,
  skipped: SkipCounts,
  finishedAt: string,
  secretFiles: readonly SecretFile[],
  skippedFiles: readonly SkippedFile[],
): Promise<void> {
  await session.rows(
    "UPDATE resources SET last_indexed_at = $1, skipped = $2 WHERE project_id = $3 AND id = $4",
    [finishedAt, skippedColumn(skipped, secretFiles, skippedFiles), session.projectId, resourceId],
  );
}

/** Takes (or renews, for its holder) a lease unless another holder's is live; atomic in one statement. */
export async function takeLease(
  session: PgSession,
  name: string,
  holder: string,
  expiryMs: number,
): Promise<boolean> {
  const now = Date.now();
  const rows = await session.rows(
    `INSERT INTO leases (project_id, name, holder, taken_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id, name) DO UPDATE SET holder = excluded.holder, taken_at = excluded.taken_at
     WHERE leases.holder = excluded.holder OR leases.taken_at < $5
     RETURNING 1`,
    [session.projectId, name, holder, now, now - expiryMs],
  );
  return rows.length > 0;
}

export async function releaseLease(
  session: PgSession,
  name: string,
  holder: string,
): Promise<void> {
  await session.rows("DELETE FROM leases WHERE project_id = $1 AND name = $2 AND holder = $3", [
    session.projectId,
    name,
    holder,
  ]);
}

export async function getMeta(session: PgSession, key: string): Promise<string | null> {
  const row = await session.row<{ value: string }>(
    "SELECT value FROM project_meta WHERE project_id = $1 AND key = $2",
    [session.projectId, key],
  );
  return row?.value ?? null;
}

export async function setMeta(session: PgSession, key: string, value: string): Promise<void> {
  await session.rows(
    `INSERT INTO project_meta (project_id, key, value) VALUES ($1, $2, $3)
     ON CONFLICT (project_id, key) DO UPDATE SET value = excluded.value`,
    [session.projectId, key, value],
  );
}

export async function getProject(session: PgSession, name: string): Promise<ProjectRecord> {
  const row = await session.row<{ enabled_strategies: string | null; updated_at: string | null }>(
    "SELECT enabled_strategies, updated_at FROM project_settings WHERE project_id = $1 AND name = $2",
    [session.projectId, name],
  );
  return {
    name,
    enabledStrategies: row?.enabled_strategies
      ? (JSON.parse(row.enabled_strategies) as string[])
      : null,
    updatedAt: row?.updated_at ?? null,
  };
}

export async function setProjectStrategies(
  session: PgSession,
  name: string,
  strategies: readonly string[] | null,
): Promise<void> {
  await session.rows(
    `INSERT INTO project_settings (project_id, name, enabled_strategies, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id, name) DO UPDATE SET enabled_strategies = excluded.enabled_strategies,
       updated_at = excluded.updated_at`,
    [
      session.projectId,
      name,
      strategies === null ? null : JSON.stringify(strategies),
      new Date().toISOString(),
    ],
  );
}

export async function listBreakers(session: PgSession, project: string): Promise<BreakerRecord[]> {
  const rows = await session.rows<{ strategy: string; failures: number; opened_at: number | null }>(
    `SELECT strategy, failures, opened_at FROM strategy_breakers WHERE project_id = $1 AND project = $2
     ORDER BY strategy COLLATE "C"`,
    [session.projectId, project],
  );
  return rows.map((row) => ({
    strategy: row.strategy,
    failures: row.failures,
    openedAt: row.opened_at,
  }));
}

export async function saveBreaker(
  session: PgSession,
  project: string,
  record: BreakerRecord,
): Promise<void> {
  await session.rows(
    `INSERT INTO strategy_breakers (project_id, project, strategy, failures, opened_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (project_id, project, strategy) DO UPDATE SET failures = excluded.failures, opened_at = excluded.opened_at`,
    [session.projectId, project, record.strategy, record.failures, record.openedAt],
  );
}

export async function listChunkContextStates(
  session: PgSession,
  unlessKey?: string | null,
): Promise<ChunkContextState[]> {
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
  return rows.map((row) => ({ ...row, contextStatus: row.contextStatus as ContextStatus | null }));
}

export async function getCachedContexts(
  session: PgSession,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (keys.length === 0) return found;
  const rows = await session.rows<{ key: string; context: string }>(
    "SELECT key, context FROM context_cache WHERE project_id = $1 AND key = ANY($2::text[])",
    [session.projectId, keys],
  );
  for (const row of rows) found.set(row.key, row.context);
  return found;
}

export async function putCachedContexts(
  session: PgSession,
  entries: readonly CachedContext[],
): Promise<void> {
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
}

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
