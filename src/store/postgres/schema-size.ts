import type { ServerStorage } from "../../core/store.js";
import type { PgSession } from "./pg-session.js";

/**
 * The schema's size on disk (each table with its indexes and TOAST) and the
 * projects sharing it: the schema is the unit a team's index takes up, and one
 * project's part of shared indexes and sequences cannot be told apart cheaply.
 */
export async function schemaSize(session: PgSession): Promise<ServerStorage> {
  const row = await session.row<{ bytes: string; projects: string }>(
    `SELECT (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)
               FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = $1 AND c.relkind IN ('r', 'm'))::bigint AS bytes,
            (SELECT count(*) FROM ctx_projects)::bigint AS projects`,
    [session.schema],
  );
  return {
    schema: session.schema,
    bytes: Number(row?.bytes ?? 0),
    projects: Number(row?.projects ?? 0),
  };
}

/** Full-text rows written in one run past which the run ends with a VACUUM (about 3,000 chunks). */
export const VACUUM_AFTER_TERM_ROWS = 200_000;

/**
 * VACUUM (ANALYZE) of the full-text rows, skipped when another session holds
 * the table's vacuum lock. It cannot run in a transaction, takes no lock that
 * writers wait for, and a user who does not own the table only gets a warning:
 * an optimization, so it never fails the run.
 */
export async function vacuumTerms(session: PgSession): Promise<void> {
  try {
    await session.pool.query("VACUUM (ANALYZE, SKIP_LOCKED) chunk_terms");
  } catch {
    // The index stays correct without it; autovacuum gets there later.
  }
}
