import type { GraphBackend } from "../../core/graph.js";
import type { HistoryStore } from "../../core/history.js";
import type { PlanStore } from "../../core/plans.js";
import type {
  ContextStore,
  DocumentStore,
  IndexState,
  Store,
  StoreStats,
  VectorStore,
} from "../../core/store.js";
import { DEFAULT_FIELD_WEIGHTS, type FieldWeights } from "../../core/text-backend.js";
import type { Resource } from "../../core/types.js";
import { ChunkChecks } from "../chunk-checks.js";
import { skippedColumn } from "../resource-rows.js";
import { explainPgError, maskUrl } from "./connection-errors.js";
import { contextCounts, pgContexts } from "./context-queries.js";
import { markForReading } from "./document-writes.js";
import { graphStats, pgGraph } from "./graph-queries.js";
import { historyStats, pgHistory } from "./history-queries.js";
import { PG_SCHEMA_VERSION } from "./migrations.js";
import { openPool } from "./open-pool.js";
import { pgDocuments } from "./pg-documents.js";
import { PgSession } from "./pg-session.js";
import { type ImportedPlan, importPlans } from "./plan-import.js";
import { pgPlans } from "./plan-queries.js";
import { pgIndexState } from "./project-records.js";
import { projectStats } from "./project-stats.js";
import { schemaSize } from "./schema-size.js";
import { pgVectors } from "./vector-queries.js";

/** The schema ctx's tables live in unless told otherwise. */
export const DEFAULT_PG_SCHEMA = "ctx";

export interface PostgresStoreOptions {
  /** The project whose rows this store reads and writes (`local/my-project`). */
  readonly project: string;
  /** Create the schema and the project when missing (default true). */
  readonly create?: boolean;
  /** The schema of the database the tables live in (default `ctx`). */
  readonly schema?: string;
  readonly fieldWeights?: FieldWeights;
  /** Connections in the pool (default 10). */
  readonly maxConnections?: number;
  /** Oldest server accepted, as `server_version_num` (default 130000: PostgreSQL 13). */
  readonly minimumServerVersion?: number;
}

/**
 * The Store on PostgreSQL with pgvector: many projects in one database, each
 * isolated by its project id, for a team or a service sharing one index. Each
 * role is its own part over the one session.
 */
export class PostgresStore implements Store {
  readonly location: string;
  /** A server's writes fail as they come, each with its reason. */
  readonly readOnly = null;
  readonly schema: string;
  readonly project: string;
  readonly documents: DocumentStore;
  readonly contexts: ContextStore;
  readonly vectors: VectorStore;
  readonly graph: GraphBackend;
  readonly history: HistoryStore;
  readonly plans: PlanStore;
  readonly state: IndexState;
  private closed = false;

  private constructor(
    private readonly session: PgSession,
    fieldWeights: FieldWeights,
    options: { schema: string; project: string; iterativeScan: boolean },
  ) {
    this.location = session.location;
    this.schema = options.schema;
    this.project = options.project;
    const checks = new ChunkChecks(
      this.location,
      (ids) => markForReading(session, ids),
      (message) => process.stderr.write(`ctx: ${message}\n`),
    );
    this.documents = pgDocuments(session, { fieldWeights, checks });
    this.contexts = pgContexts(session);
    this.vectors = pgVectors(session, { checks, iterativeScan: options.iterativeScan });
    this.graph = pgGraph(session);
    this.history = pgHistory(session);
    this.plans = pgPlans(session);
    this.state = pgIndexState(session, options.project);
  }

  static async open(url: string, options: PostgresStoreOptions): Promise<PostgresStore> {
    const location = maskUrl(url);
    const schema = options.schema ?? DEFAULT_PG_SCHEMA;
    const { pool, projectId, pgvectorVersion } = await openPool({
      url,
      location,
      schema,
      create: options.create ?? true,
      project: options.project,
      maxConnections: options.maxConnections ?? 10,
      ...(options.minimumServerVersion !== undefined
        ? { minimumServerVersion: options.minimumServerVersion }
        : {}),
    });
    return new PostgresStore(
      new PgSession(pool, projectId, location, schema),
      options.fieldWeights ?? DEFAULT_FIELD_WEIGHTS,
      { schema, project: options.project, iterativeScan: atLeast(pgvectorVersion, [0, 8]) },
    );
  }

  explainFailure(error: unknown): unknown {
    return explainPgError(this.location, error);
  }

  /** Records a resource as another index holds it, its id kept (for `ctx migrate`). */
  async importResource(resource: Resource): Promise<void> {
    await this.session.rows(
      `INSERT INTO resources (project_id, id, root, kind, added_at, last_indexed_at, skipped)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (project_id, id) DO UPDATE SET root = excluded.root, kind = excluded.kind,
         last_indexed_at = excluded.last_indexed_at, skipped = excluded.skipped`,
      [
        this.session.projectId,
        resource.id,
        resource.root,
        resource.kind,
        resource.addedAt,
        resource.lastIndexedAt,
        skippedColumn(resource.skipped, resource.secretFiles, resource.skippedFiles),
      ],
    );
  }

  /** Copies plans as another index holds them (new ids, parents followed), with their decisions. */
  importPlans(plans: readonly ImportedPlan[]): Promise<void> {
    return importPlans(this.session, plans);
  }

  async stats(): Promise<StoreStats> {
    return {
      ...(await projectStats(this.session)),
      schemaVersion: PG_SCHEMA_VERSION,
      contexts: await contextCounts(this.session),
      graph: await graphStats(this.session),
      history: await historyStats(this.session),
      server: await schemaSize(this.session),
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.session.pool.end();
  }
}

function atLeast(version: string, minimum: readonly number[]): boolean {
  const parts = version.split(".").map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < minimum.length; i++) {
    const difference = (parts[i] ?? 0) - (minimum[i] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return true;
}
