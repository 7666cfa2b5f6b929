import type Database from "better-sqlite3";
import type { BreakerRecord } from "../../core/breaker.js";
import type { ProjectRecord } from "../../core/store.js";
import { cachedStatement } from "./statement-cache.js";
import { inWriteTransaction } from "./write-transaction.js";

/** The project's record; an empty one when it was never written. */
export function getProject(db: Database.Database, name: string): ProjectRecord {
  const row = cachedStatement(
    db,
    "SELECT enabled_strategies, updated_at FROM projects WHERE name = ?",
  ).get(name) as { enabled_strategies: string | null; updated_at: string | null } | undefined;
  return {
    name,
    enabledStrategies: row?.enabled_strategies
      ? (JSON.parse(row.enabled_strategies) as string[])
      : null,
    updatedAt: row?.updated_at ?? null,
  };
}

export function setProjectStrategies(
  db: Database.Database,
  name: string,
  strategies: readonly string[] | null,
): void {
  inWriteTransaction(db, () =>
    db
      .prepare(
        `INSERT INTO projects (name, enabled_strategies, updated_at) VALUES (?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET enabled_strategies = excluded.enabled_strategies,
           updated_at = excluded.updated_at`,
      )
      .run(name, strategies === null ? null : JSON.stringify(strategies), new Date().toISOString()),
  );
}

export function listBreakers(db: Database.Database, project: string): BreakerRecord[] {
  const rows = db
    .prepare(
      "SELECT strategy, failures, opened_at FROM strategy_breakers WHERE project = ? ORDER BY strategy",
    )
    .all(project) as { strategy: string; failures: number; opened_at: number | null }[];
  return rows.map((row) => ({
    strategy: row.strategy,
    failures: row.failures,
    openedAt: row.opened_at,
  }));
}

export function saveBreaker(db: Database.Database, project: string, record: BreakerRecord): void {
  inWriteTransaction(db, () =>
    db
      .prepare(
        `INSERT INTO strategy_breakers (project, strategy, failures, opened_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(project, strategy) DO UPDATE SET failures = excluded.failures, opened_at = excluded.opened_at`,
      )
      .run(project, record.strategy, record.failures, record.openedAt),
  );
}
