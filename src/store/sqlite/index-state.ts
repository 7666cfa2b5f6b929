import type Database from "better-sqlite3";
import type { BreakerRecord } from "../../core/breaker.js";
import type { IndexingLock, IndexState, ProjectRecord } from "../../core/store.js";
import { releaseLease, takeLease } from "./leases.js";
import { cachedStatement } from "./statement-cache.js";
import { inWriteTransaction } from "./write-transaction.js";

/** The index's own state over one connection: metadata, leases, the project's record and breakers. */
export function sqliteIndexState(db: Database.Database): IndexState {
  return {
    takeLease: async (name, holder, expiryMs) => takeLease(db, name, holder, expiryMs),
    releaseLease: async (name, holder) => releaseLease(db, name, holder),
    /** Concurrent runs are safe here: each write batch takes SQLite's write lock. */
    async lockIndexing(): Promise<IndexingLock> {
      return { release: async () => {} };
    },
    /** A value of the index's own metadata, null when unset. */
    async getMeta(key: string): Promise<string | null> {
      const row = cachedStatement(db, "SELECT value FROM ctx_meta WHERE key = ?").get(key) as
        | { value: string }
        | undefined;
      return row?.value ?? null;
    },
    async setMeta(key: string, value: string): Promise<void> {
      inWriteTransaction(db, () =>
        db
          .prepare(
            "INSERT INTO ctx_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
          )
          .run(key, value),
      );
    },
    /** The project's record; an empty one when it was never written. */
    async getProject(name: string): Promise<ProjectRecord> {
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
    },
    async setProjectStrategies(name: string, strategies: readonly string[] | null): Promise<void> {
      inWriteTransaction(db, () =>
        db
          .prepare(
            `INSERT INTO projects (name, enabled_strategies, updated_at) VALUES (?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET enabled_strategies = excluded.enabled_strategies,
           updated_at = excluded.updated_at`,
          )
          .run(
            name,
            strategies === null ? null : JSON.stringify(strategies),
            new Date().toISOString(),
          ),
      );
    },
    async listBreakers(project: string): Promise<BreakerRecord[]> {
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
    },
    async saveBreaker(project: string, record: BreakerRecord): Promise<void> {
      inWriteTransaction(db, () =>
        db
          .prepare(
            `INSERT INTO strategy_breakers (project, strategy, failures, opened_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(project, strategy) DO UPDATE SET failures = excluded.failures, opened_at = excluded.opened_at`,
          )
          .run(project, record.strategy, record.failures, record.openedAt),
      );
    },
  };
}
