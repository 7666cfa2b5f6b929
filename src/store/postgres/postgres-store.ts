import type { BreakerRecord } from "../../core/breaker.js";
import type {
  GraphFileKey,
  GraphFileRecord,
  KnownGraphFiles,
  ReferenceRecord,
  SymbolQuery,
  SymbolRecord,
} from "../../core/graph.js";
import type {
  CachedContext,
  ChunkContextState,
  ChunkContextUpdate,
  DocumentToStore,
  EmbeddingWork,
  IndexingLock,
  ProjectRecord,
  Store,
  StoreStats,
} from "../../core/store.js";
import {
  DEFAULT_FIELD_WEIGHTS,
  type FieldWeights,
  type TextHit,
  type TextQuery,
  type VectorHit,
} from "../../core/text-backend.js";
import type {
  DocumentState,
  Resource,
  ResourceKind,
  SecretFile,
  SkipCounts,
  SkippedFile,
  StoredChunk,
} from "../../core/types.js";
import { ChunkChecks } from "../chunk-checks.js";
import { CHUNK_COLUMNS, type ChunkRow, toStoredChunk } from "../chunk-rows.js";
import { skippedColumn } from "../resource-rows.js";
import { explainPgError, maskUrl } from "./connection-errors.js";
import {
  bumpGeneration,
  deleteDocuments,
  markForReading,
  writeDocuments,
} from "./document-writes.js";
import * as graph from "./graph-queries.js";
import * as graphSnapshot from "./graph-snapshot.js";
import { PostgresHistoryAndPlans } from "./history-plans.js";
import { lockIndexing } from "./indexing-lock.js";
import { PG_SCHEMA_VERSION } from "./migrations.js";
import { openPool } from "./open-pool.js";
import { PgSession } from "./pg-session.js";
import { type ImportedPlan, importPlans } from "./plan-import.js";
import * as records from "./project-records.js";
import { projectStats } from "./project-stats.js";
import { schemaSize, VACUUM_AFTER_TERM_ROWS, vacuumTerms } from "./schema-size.js";
import { chunkRows, searchChunks, updateChunkContexts } from "./text-search.js";
import * as vectors from "./vector-queries.js";

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
 * isolated by its project id, for a team or a service sharing one index.
 */
export class PostgresStore extends PostgresHistoryAndPlans implements Store {
  readonly location: string;
  /** A server's writes fail as they come, each with its reason. */
  readonly readOnly = null;
  readonly vectorsAvailable = true;
  readonly schema: string;
  readonly project: string;
  private closed = false;
  /** Full-text rows this store wrote since it last vacuumed them. */
  private termRowsWritten = 0;

  private constructor(
    protected readonly session: PgSession,
    private readonly fieldWeights: FieldWeights,
    options: { schema: string; project: string; iterativeScan: boolean },
  ) {
    super();
    this.location = session.location;
    this.schema = options.schema;
    this.project = options.project;
    this.iterativeScan = options.iterativeScan;
    this.checks = new ChunkChecks(
      this.location,
      (ids) => markForReading(session, ids),
      (message) => process.stderr.write(`ctx: ${message}\n`),
    );
  }

  private readonly iterativeScan: boolean;
  private readonly checks: ChunkChecks;

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

  listResources(): Promise<Resource[]> {
    return records.listResources(this.session);
  }

  ensureResource(root: string, kind: ResourceKind): Promise<Resource> {
    return records.ensureResource(this.session, root, kind);
  }

  moveResource(resourceId: string, root: string): Promise<boolean> {
    return records.moveResource(this.session, resourceId, root);
  }

  takeLease(name: string, holder: string, expiryMs: number): Promise<boolean> {
    return records.takeLease(this.session, name, holder, expiryMs);
  }

  releaseLease(name: string, holder: string): Promise<void> {
    return records.releaseLease(this.session, name, holder);
  }

  lockIndexing(waitMs: number): Promise<IndexingLock> {
    return lockIndexing(this.session, this.project, waitMs);
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

  async removeResource(resourceId: string): Promise<number> {
    const { projectId } = this.session;
    return this.session.transaction(async (client) => {
      await bumpGeneration(client, projectId);
      const { rows } = await client.query<{ id: number }>(
        "SELECT id FROM documents WHERE project_id = $1 AND resource_id = $2",
        [projectId, resourceId],
      );
      await deleteDocuments(
        client,
        projectId,
        rows.map((row) => row.id),
      );
      await client.query("DELETE FROM resources WHERE project_id = $1 AND id = $2", [
        projectId,
        resourceId,
      ]);
      return rows.length;
    });
  }

  recordRun(
    resourceId: string,
    skipped: SkipCounts,
    finishedAt: string,
    secretFiles: readonly SecretFile[] = [],
    skippedFiles: readonly SkippedFile[] = [],
  ): Promise<void> {
    return records.recordRun(
      this.session,
      resourceId,
      skipped,
      finishedAt,
      secretFiles,
      skippedFiles,
    );
  }

  listDocuments(resourceId: string): Promise<DocumentState[]> {
    return this.session.rows<DocumentState>(
      `SELECT id, path, size, mtime_ms AS "mtimeMs", hash FROM documents
       WHERE project_id = $1 AND resource_id = $2`,
      [this.session.projectId, resourceId],
    );
  }

  async writeDocuments(documents: readonly DocumentToStore[]): Promise<void> {
    this.termRowsWritten += await writeDocuments(this.session, documents);
  }

  async touchDocument(documentId: number, size: number, mtimeMs: number): Promise<void> {
    await this.session.rows(
      "UPDATE documents SET size = $1, mtime_ms = $2 WHERE project_id = $3 AND id = $4",
      [size, Math.trunc(mtimeMs), this.session.projectId, documentId],
    );
  }

  async removeDocuments(documentIds: readonly number[]): Promise<void> {
    if (documentIds.length === 0) return;
    const { projectId } = this.session;
    await this.session.transaction(async (client) => {
      await bumpGeneration(client, projectId);
      await deleteDocuments(client, projectId, documentIds);
    });
  }

  /** The inverted index is exact after every write; only a run that wrote many rows vacuums them (compact). */
  async compactionDue(): Promise<boolean> {
    return this.termRowsWritten >= VACUUM_AFTER_TERM_ROWS;
  }

  /**
   * After a run that wrote many full-text rows, marks their pages all-visible
   * (VACUUM) so searches read postings from chunk_terms' key alone; until
   * autovacuum gets there, each posting costs a heap page. Small runs (a watch
   * batch) leave it to autovacuum.
   */
  async compact(): Promise<void> {
    if (this.termRowsWritten < VACUUM_AFTER_TERM_ROWS) return;
    this.termRowsWritten = 0;
    await vacuumTerms(this.session);
  }

  async searchText(query: TextQuery): Promise<TextHit[]> {
    return this.checks.intactHits(await searchChunks(this.session, this.fieldWeights, query));
  }

  async getChunks(chunkIds: readonly number[]): Promise<StoredChunk[]> {
    return this.checks.intact((await chunkRows(this.session, chunkIds)).map(toStoredChunk));
  }

  async getDocumentChunks(
    resourceId: string,
    path: string,
    limit?: number,
  ): Promise<StoredChunk[]> {
    const rows = await this.session.rows<ChunkRow>(
      `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id
       WHERE d.project_id = $1 AND d.resource_id = $2 AND d.path = $3 ORDER BY c.ordinal
       LIMIT $4`,
      [this.session.projectId, resourceId, path, limit ?? null],
    );
    return this.checks.intact(rows.map(toStoredChunk));
  }

  async stats(): Promise<StoreStats> {
    return {
      ...(await projectStats(this.session)),
      schemaVersion: PG_SCHEMA_VERSION,
      contexts: await records.contextCounts(this.session),
      graph: await graph.graphStats(this.session),
      history: await this.historyStats(),
      server: await schemaSize(this.session),
    };
  }

  getMeta(key: string): Promise<string | null> {
    return records.getMeta(this.session, key);
  }

  setMeta(key: string, value: string): Promise<void> {
    return records.setMeta(this.session, key, value);
  }

  listChunkContextStates(unlessKey?: string | null): Promise<ChunkContextState[]> {
    return records.listChunkContextStates(this.session, unlessKey);
  }

  updateChunkContexts(updates: readonly ChunkContextUpdate[]): Promise<void> {
    return updateChunkContexts(this.session, updates);
  }

  getCachedContexts(keys: readonly string[]): Promise<Map<string, string>> {
    return records.getCachedContexts(this.session, keys);
  }

  putCachedContexts(entries: readonly CachedContext[]): Promise<void> {
    return records.putCachedContexts(this.session, entries);
  }

  listUnembedded(embedderId: string, limit: number): Promise<EmbeddingWork[]> {
    return vectors.listUnembedded(this.session, embedderId, limit);
  }

  putEmbeddings(
    embedderId: string,
    dimensions: number,
    entries: readonly { embedHash: string; vector: Float32Array }[],
  ): Promise<void> {
    return vectors.putEmbeddings(this.session, embedderId, dimensions, entries);
  }

  async searchVectors(
    embedderId: string,
    vector: Float32Array,
    limit: number,
    pathPrefixes: readonly string[] = [],
  ): Promise<VectorHit[]> {
    return this.checks.intactHits(
      await vectors.searchVectors(
        this.session,
        embedderId,
        vector,
        limit,
        pathPrefixes,
        this.iterativeScan,
      ),
    );
  }

  embeddingCoverage(embedderId: string): Promise<{ embedded: number; total: number }> {
    return vectors.embeddingCoverage(this.session, embedderId);
  }

  pruneEmbeddings(): Promise<number> {
    return vectors.pruneEmbeddings(this.session);
  }

  getProject(name: string): Promise<ProjectRecord> {
    return records.getProject(this.session, name);
  }

  setProjectStrategies(name: string, strategies: readonly string[] | null): Promise<void> {
    return records.setProjectStrategies(this.session, name, strategies);
  }

  listBreakers(project: string): Promise<BreakerRecord[]> {
    return records.listBreakers(this.session, project);
  }

  saveBreaker(project: string, record: BreakerRecord): Promise<void> {
    return records.saveBreaker(this.session, project, record);
  }

  findSymbols(query: SymbolQuery): Promise<SymbolRecord[]> {
    return graph.findSymbols(this.session, query);
  }

  findReferences(name: string, definitionPath?: string): Promise<ReferenceRecord[]> {
    return graph.findReferences(this.session, name, definitionPath);
  }

  async graphGeneration(): Promise<string> {
    try {
      return await graphSnapshot.graphGeneration(this.session.pool, this.session.projectId);
    } catch (error) {
      throw this.explainFailure(error);
    }
  }

  loadGraph(known?: KnownGraphFiles): Promise<{ generation: string; files: GraphFileRecord[] }> {
    return graphSnapshot.loadGraph(this.session, known);
  }

  loadGraphSince(
    since: string,
    limit: number,
  ): Promise<{ generation: string; files: GraphFileKey[]; written: GraphFileRecord[] | null }> {
    return graphSnapshot.graphFilesSince(this.session, since, limit);
  }

  loadGraphReferencing(names: readonly string[]): Promise<GraphFileRecord[]> {
    return graphSnapshot.graphFilesReferencing(this.session, names);
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
