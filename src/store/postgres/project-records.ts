import { ulid } from "ulid";
import type { BreakerRecord } from "../../core/breaker.js";
import type { DocumentStore, IndexState, ProjectRecord } from "../../core/store.js";
import {
  emptySkipCounts,
  type Resource,
  type ResourceKind,
  type SecretFile,
  type SkipCounts,
  type SkippedFile,
} from "../../core/types.js";
import { type ResourceRow, skippedColumn, toResource } from "../resource-rows.js";
import { lockIndexing } from "./indexing-lock.js";
import type { PgSession } from "./pg-session.js";
import { rowsOf } from "./pg-session.js";

// Resources, leases, metadata, project settings and breakers: small per-project
// records, each query scoped by the session's project.

const RESOURCE_COLUMNS = "id, root, kind, added_at, last_indexed_at, skipped";

/** The project's indexed roots over one connection. */
export function pgResources(
  session: PgSession,
): Pick<DocumentStore, "listResources" | "ensureResource" | "moveResource" | "recordRun"> {
  return {
    async listResources(): Promise<Resource[]> {
      const rows = await session.rows<ResourceRow>(
        `SELECT ${RESOURCE_COLUMNS} FROM resources WHERE project_id = $1 ORDER BY added_at COLLATE "C", id COLLATE "C"`,
        [session.projectId],
      );
      return rows.map(toResource);
    },
    /** The resource for a root, added when new (two processes adding it at once agree on one). */
    async ensureResource(root: string, kind: ResourceKind): Promise<Resource> {
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
    },
    async moveResource(resourceId: string, root: string): Promise<boolean> {
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
    },
    async recordRun(
      resourceId: string,
      skipped: SkipCounts,
      finishedAt: string,
      secretFiles: readonly SecretFile[] = [],
      skippedFiles: readonly SkippedFile[] = [],
    ): Promise<void> {
      await session.rows(
        "UPDATE resources SET last_indexed_at = $1, skipped = $2 WHERE project_id = $3 AND id = $4",
        [
          finishedAt,
          skippedColumn(skipped, secretFiles, skippedFiles),
          session.projectId,
          resourceId,
        ],
      );
    },
  };
}

/**
 * The project's own state over one connection: metadata, leases, the indexing
 * lock (`project` names it), the project's record and breakers.
 */
export function pgIndexState(session: PgSession, project: string): IndexState {
  return {
    lockIndexing: (waitMs) => lockIndexing(session, project, waitMs),
    /** Takes (or renews, for its holder) a lease unless another holder's is live; atomic in one statement. */
    async takeLease(name: string, holder: string, expiryMs: number): Promise<boolean> {
      const now = Date.now();
      const rows = await session.rows(
        `INSERT INTO leases (project_id, name, holder, taken_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id, name) DO UPDATE SET holder = excluded.holder, taken_at = excluded.taken_at
     WHERE leases.holder = excluded.holder OR leases.taken_at < $5
     RETURNING 1`,
        [session.projectId, name, holder, now, now - expiryMs],
      );
      return rows.length > 0;
    },
    async releaseLease(name: string, holder: string): Promise<void> {
      await session.rows("DELETE FROM leases WHERE project_id = $1 AND name = $2 AND holder = $3", [
        session.projectId,
        name,
        holder,
      ]);
    },
    async getMeta(key: string): Promise<string | null> {
      const row = await session.row<{ value: string }>(
        "SELECT value FROM project_meta WHERE project_id = $1 AND key = $2",
        [session.projectId, key],
      );
      return row?.value ?? null;
    },
    async setMeta(key: string, value: string): Promise<void> {
      await session.rows(
        `INSERT INTO project_meta (project_id, key, value) VALUES ($1, $2, $3)
     ON CONFLICT (project_id, key) DO UPDATE SET value = excluded.value`,
        [session.projectId, key, value],
      );
    },
    async getProject(name: string): Promise<ProjectRecord> {
      const row = await session.row<{
        enabled_strategies: string | null;
        updated_at: string | null;
      }>(
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
    },
    async setProjectStrategies(name: string, strategies: readonly string[] | null): Promise<void> {
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
    },
    async listBreakers(project: string): Promise<BreakerRecord[]> {
      const rows = await session.rows<{
        strategy: string;
        failures: number;
        opened_at: number | null;
      }>(
        `SELECT strategy, failures, opened_at FROM strategy_breakers WHERE project_id = $1 AND project = $2
     ORDER BY strategy COLLATE "C"`,
        [session.projectId, project],
      );
      return rows.map((row) => ({
        strategy: row.strategy,
        failures: row.failures,
        openedAt: row.opened_at,
      }));
    },
    async saveBreaker(project: string, record: BreakerRecord): Promise<void> {
      await session.rows(
        `INSERT INTO strategy_breakers (project_id, project, strategy, failures, opened_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (project_id, project, strategy) DO UPDATE SET failures = excluded.failures, opened_at = excluded.opened_at`,
        [session.projectId, project, record.strategy, record.failures, record.openedAt],
      );
    },
  };
}
