import { availableParallelism } from "node:os";
import { dirname } from "node:path";
import type Database from "better-sqlite3";
import type { BreakerRecord } from "../../core/breaker.js";
import { StoreError } from "../../core/errors.js";
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
  SearchText,
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
import { AnnIndexes } from "./ann-index.js";
import * as contexts from "./context-queries.js";
import { DeferredGraphIndexes } from "./deferred-graph-indexes.js";
import { DocumentWrites, markForReading } from "./document-writes.js";
import * as graph from "./graph-queries.js";
import * as graphSnapshot from "./graph-snapshot.js";
import * as history from "./history-queries.js";
import * as leases from "./leases.js";
import { SCHEMA_VERSION } from "./migrations.js";
import { openDatabase } from "./open-database.js";
import * as projects from "./project-queries.js";
import * as resources from "./resource-queries.js";
import { DEFAULT_SPLIT_FROM_CHUNKS, SearchThreads } from "./search-threads.js";
import { SqliteHistoryAndPlans } from "./sqlite-history-plans.js";
import { cachedStatement } from "./statement-cache.js";
import { TextCompaction } from "./text-compaction.js";
import { chunkRows, KeywordSearch } from "./text-search.js";
import { loadVectorExtension } from "./vector-extension.js";
import * as vectors from "./vector-queries.js";
import { readOnlyFault } from "./write-fault.js";
import { asIndexError, inWriteTransaction } from "./write-transaction.js";

/** Vectors per embedder from which search uses an HNSW index instead of exact search. */
export const DEFAULT_ANN_THRESHOLD = 100_000;

export interface SqliteStoreOptions {
  readonly create: boolean;
  readonly fieldWeights?: FieldWeights;
  /** Vectors per embedder from which search goes through an HNSW index (default 100,000). */
  readonly annThreshold?: number;
  /**
   * Threads a large index's keyword search is split across, this one included
   * (default: the machine's cores, at most 4); 1 keeps it in this thread.
   */
  readonly searchThreads?: number;
  /** Chunks from which the search is split (default 30,000). */
  readonly splitSearchFrom?: number;
  /** Whether a keyword search may leave unscored what cannot reach its hits (default true). */
  readonly pruneSearch?: boolean;
  /** Told what the store works around (say, search kept exact); default: a line on stderr. */
  readonly onWarning?: (message: string) => void;
}

function warnOnStderr(message: string): void {
  process.stderr.write(`ctx: ${message}\n`);
}

/** The default store: one SQLite file with FTS5, through better-sqlite3. */
export class SqliteStore extends SqliteHistoryAndPlans implements Store {
  readonly location: string;
  readonly readOnly: string | null;
  protected readonly db: Database.Database;
  private readonly compaction: TextCompaction;
  private readonly documents: DocumentWrites;
  private readonly graphIndexes: DeferredGraphIndexes;
  private readonly vectorExtension: boolean;
  private readonly ann: AnnIndexes;
  private readonly keywordSearch: KeywordSearch;
  private readonly checks: ChunkChecks;

  private constructor(
    location: string,
    db: Database.Database,
    annThreshold: number,
    warn: (message: string) => void,
    keywordSearch: KeywordSearch,
  ) {
    super();
    this.keywordSearch = keywordSearch;
    this.location = location;
    this.db = db;
    this.readOnly = readOnlyFault(db)?.reason ?? null;
    this.ann = new AnnIndexes(
      location === ":memory:" ? null : dirname(location),
      annThreshold,
      warn,
    );
    this.vectorExtension = loadVectorExtension(db);
    this.compaction = new TextCompaction(db);
    this.graphIndexes = new DeferredGraphIndexes(db);
    this.documents = new DocumentWrites(db, this.compaction, this.graphIndexes);
    this.checks = new ChunkChecks(location, (ids) => markForReading(db, ids), warn);
    try {
      this.graphIndexes.restore();
    } catch {
      // A run that stopped early left them out; a read-only or busy index answers all the same, slower.
    }
  }

  static open(file: string, options: SqliteStoreOptions): SqliteStore {
    const db = openDatabase(file, { create: options.create });
    // Search threads open the file by its name, which an index opened read-only (immutable, or
    // copied into memory) cannot be read by: they search on this thread.
    const threads = readOnlyFault(db) ? 1 : options.searchThreads;
    return new SqliteStore(
      file,
      db,
      options.annThreshold ?? DEFAULT_ANN_THRESHOLD,
      options.onWarning ?? warnOnStderr,
      new KeywordSearch(db, options.fieldWeights ?? DEFAULT_FIELD_WEIGHTS, {
        threads: new SearchThreads(
          file,
          threads ?? Math.min(4, availableParallelism()),
          options.splitSearchFrom ?? DEFAULT_SPLIT_FROM_CHUNKS,
        ),
        prune: options.pruneSearch ?? true,
      }),
    );
  }

  async findSymbols(query: SymbolQuery): Promise<SymbolRecord[]> {
    return graph.findSymbols(this.db, query);
  }

  async findReferences(name: string, definitionPath?: string): Promise<ReferenceRecord[]> {
    return graph.findReferences(this.db, name, definitionPath);
  }

  async graphGeneration(): Promise<string> {
    return graphSnapshot.graphGeneration(this.db);
  }

  async loadGraph(
    known?: KnownGraphFiles,
  ): Promise<{ generation: string; files: GraphFileRecord[] }> {
    return graphSnapshot.loadGraph(this.db, known);
  }

  async loadGraphSince(
    since: string,
    limit: number,
  ): Promise<{ generation: string; files: GraphFileKey[]; written: GraphFileRecord[] | null }> {
    return graphSnapshot.graphFilesSince(this.db, since, limit);
  }

  async loadGraphReferencing(names: readonly string[]): Promise<GraphFileRecord[]> {
    return graphSnapshot.graphFilesReferencing(this.db, names);
  }

  explainFailure(error: unknown): unknown {
    return asIndexError(this.db, error);
  }

  async listResources(): Promise<Resource[]> {
    return resources.listResources(this.db);
  }

  async ensureResource(root: string, kind: ResourceKind): Promise<Resource> {
    return resources.ensureResource(this.db, root, kind);
  }

  async moveResource(resourceId: string, root: string): Promise<boolean> {
    return resources.moveResource(this.db, resourceId, root);
  }

  async takeLease(name: string, holder: string, expiryMs: number): Promise<boolean> {
    return leases.takeLease(this.db, name, holder, expiryMs);
  }

  async releaseLease(name: string, holder: string): Promise<void> {
    leases.releaseLease(this.db, name, holder);
  }

  /** Concurrent runs are safe here: each write batch takes SQLite's write lock. */
  async lockIndexing(): Promise<IndexingLock> {
    return { release: async () => {} };
  }

  async removeResource(resourceId: string): Promise<number> {
    return this.documents.removeResource(resourceId);
  }

  async recordRun(
    resourceId: string,
    skipped: SkipCounts,
    finishedAt: string,
    secretFiles: readonly SecretFile[] = [],
    skippedFiles: readonly SkippedFile[] = [],
  ): Promise<void> {
    resources.recordRun(this.db, resourceId, skipped, finishedAt, secretFiles, skippedFiles);
    this.graphIndexes.restore();
  }

  async listDocuments(resourceId: string): Promise<DocumentState[]> {
    return this.db
      .prepare(
        "SELECT id, path, size, mtime_ms AS mtimeMs, hash FROM documents WHERE resource_id = ?",
      )
      .all(resourceId) as DocumentState[];
  }

  async writeDocuments(documents: readonly DocumentToStore[]): Promise<void> {
    this.documents.write(documents);
  }

  async touchDocument(documentId: number, size: number, mtimeMs: number): Promise<void> {
    this.documents.touch(documentId, size, mtimeMs);
  }

  async removeDocuments(documentIds: readonly number[]): Promise<void> {
    this.documents.remove(documentIds);
  }

  async compactionDue(): Promise<boolean> {
    return this.compaction.isDue();
  }

  async compact(
    searchTexts: (documentChunks: readonly StoredChunk[]) => SearchText[],
  ): Promise<void> {
    await this.compaction.compact(searchTexts);
  }

  async searchText(query: TextQuery): Promise<TextHit[]> {
    return this.checks.intactHits(await this.keywordSearch.search(query));
  }

  /** Starts a large index's search threads now, not with the first search; true when searches split. */
  prepareSearchThreads(): Promise<boolean> {
    return this.keywordSearch.prepareThreads();
  }

  async getChunks(chunkIds: readonly number[]): Promise<StoredChunk[]> {
    return this.checks.intact(chunkRows(this.db, chunkIds).map(toStoredChunk));
  }

  async getDocumentChunks(resourceId: string, path: string, limit = -1): Promise<StoredChunk[]> {
    const rows = cachedStatement(
      this.db,
      `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id
       WHERE d.resource_id = ? AND d.path = ? ORDER BY c.ordinal LIMIT ?`,
    ).all(resourceId, path, limit) as ChunkRow[];
    return this.checks.intact(rows.map(toStoredChunk));
  }

  async stats(): Promise<StoreStats> {
    const counts = this.db
      .prepare(
        `SELECT (SELECT count(*) FROM resources) AS resources,
                (SELECT count(*) FROM documents) AS documents,
                (SELECT count(*) FROM chunks) AS chunks,
                (SELECT coalesce(sum(size), 0) FROM documents) AS bytes,
                (SELECT max(last_indexed_at) FROM resources) AS lastIndexedAt`,
      )
      .get() as Omit<StoreStats, "schemaVersion" | "languages" | "contexts" | "graph" | "history">;
    const languages: Record<string, number> = {};
    const rows = this.db
      .prepare(
        "SELECT language, count(*) AS n FROM documents GROUP BY language ORDER BY n DESC, language",
      )
      .all() as { language: string; n: number }[];
    for (const row of rows) languages[row.language] = row.n;
    return {
      ...counts,
      schemaVersion: SCHEMA_VERSION,
      languages,
      contexts: contexts.contextCounts(this.db),
      graph: graph.graphStats(this.db),
      history: history.historyStats(this.db),
    };
  }

  get vectorsAvailable(): boolean {
    return this.vectorExtension;
  }

  async listUnembedded(embedderId: string, limit: number): Promise<EmbeddingWork[]> {
    return vectors.listUnembedded(this.db, embedderId, limit);
  }

  async putEmbeddings(
    embedderId: string,
    dimensions: number,
    entries: readonly { embedHash: string; vector: Float32Array }[],
  ): Promise<void> {
    this.requireVectors();
    const { table, added } = vectors.putEmbeddings(this.db, embedderId, dimensions, entries);
    this.ann.added(table, added);
  }

  async searchVectors(
    embedderId: string,
    vector: Float32Array,
    limit: number,
    pathPrefixes: readonly string[] = [],
  ): Promise<VectorHit[]> {
    if (!this.vectorExtension) return [];
    return this.checks.intactHits(
      vectors.searchVectors(this.db, embedderId, vector, limit, pathPrefixes, this.ann),
    );
  }

  async embeddingCoverage(embedderId: string): Promise<{ embedded: number; total: number }> {
    return vectors.embeddingCoverage(this.db, embedderId);
  }

  async pruneEmbeddings(): Promise<number> {
    if (!this.vectorExtension) return 0;
    let count = 0;
    for (const [table, rowids] of vectors.pruneEmbeddings(this.db)) {
      this.ann.removed(table, rowids);
      count += rowids.length;
    }
    return count;
  }

  private requireVectors(): void {
    if (!this.vectorExtension) {
      throw new StoreError(
        this.location,
        "vectors are unavailable: the sqlite-vec extension did not load on this platform",
      );
    }
  }

  async getMeta(key: string): Promise<string | null> {
    const row = cachedStatement(this.db, "SELECT value FROM ctx_meta WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row?.value ?? null;
  }

  async setMeta(key: string, value: string): Promise<void> {
    inWriteTransaction(this.db, () =>
      this.db
        .prepare(
          "INSERT INTO ctx_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        )
        .run(key, value),
    );
  }

  async listChunkContextStates(unlessKey?: string | null): Promise<ChunkContextState[]> {
    return contexts.listChunkContextStates(this.db, unlessKey);
  }

  async updateChunkContexts(updates: readonly ChunkContextUpdate[]): Promise<void> {
    inWriteTransaction(this.db, () => {
      this.compaction.recordWrite(contexts.updateChunkContexts(this.db, updates));
    });
  }

  async getCachedContexts(keys: readonly string[]): Promise<Map<string, string>> {
    return contexts.getCachedContexts(this.db, keys);
  }

  async putCachedContexts(entries: readonly CachedContext[]): Promise<void> {
    contexts.putCachedContexts(this.db, entries);
  }

  async getProject(name: string): Promise<ProjectRecord> {
    return projects.getProject(this.db, name);
  }

  async setProjectStrategies(name: string, strategies: readonly string[] | null): Promise<void> {
    projects.setProjectStrategies(this.db, name, strategies);
  }

  async listBreakers(project: string): Promise<BreakerRecord[]> {
    return projects.listBreakers(this.db, project);
  }

  async saveBreaker(project: string, record: BreakerRecord): Promise<void> {
    projects.saveBreaker(this.db, project, record);
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    await this.keywordSearch.close();
    this.ann.save();
    this.db.close();
  }
}
