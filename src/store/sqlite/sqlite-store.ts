import { availableParallelism } from "node:os";
import { dirname } from "node:path";
import type Database from "better-sqlite3";
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
import { ChunkChecks } from "../chunk-checks.js";
import { AnnIndexes } from "./ann-index.js";
import { contextCounts, sqliteContexts } from "./context-queries.js";
import { DeferredGraphIndexes } from "./deferred-graph-indexes.js";
import { DocumentWrites, markForReading } from "./document-writes.js";
import { graphStats, sqliteGraph } from "./graph-queries.js";
import { historyStats, sqliteHistory } from "./history-queries.js";
import { sqliteIndexState } from "./index-state.js";
import { SCHEMA_VERSION } from "./migrations.js";
import { openDatabase } from "./open-database.js";
import { sqlitePlans } from "./plan-queries.js";
import { DEFAULT_SPLIT_FROM_CHUNKS, SearchThreads } from "./search-threads.js";
import { sqliteDocuments } from "./sqlite-documents.js";
import { TextCompaction } from "./text-compaction.js";
import { KeywordSearch } from "./text-search.js";
import { loadVectorExtension } from "./vector-extension.js";
import { sqliteVectors } from "./vector-queries.js";
import { readOnlyFault } from "./write-fault.js";
import { asIndexError } from "./write-transaction.js";

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

/**
 * The default store: one SQLite file with FTS5, through better-sqlite3. Each
 * role is its own part over the one connection.
 */
export class SqliteStore implements Store {
  readonly location: string;
  readonly readOnly: string | null;
  readonly documents: DocumentStore;
  readonly contexts: ContextStore;
  readonly vectors: VectorStore;
  readonly graph: GraphBackend;
  readonly history: HistoryStore;
  readonly plans: PlanStore;
  readonly state: IndexState;
  private readonly ann: AnnIndexes;

  private constructor(
    location: string,
    private readonly db: Database.Database,
    annThreshold: number,
    warn: (message: string) => void,
    private readonly keywordSearch: KeywordSearch,
  ) {
    this.location = location;
    this.readOnly = readOnlyFault(db)?.reason ?? null;
    this.ann = new AnnIndexes(
      location === ":memory:" ? null : dirname(location),
      annThreshold,
      warn,
    );
    const compaction = new TextCompaction(db);
    const graphIndexes = new DeferredGraphIndexes(db);
    const checks = new ChunkChecks(location, (ids) => markForReading(db, ids), warn);
    this.documents = sqliteDocuments(db, {
      writes: new DocumentWrites(db, compaction, graphIndexes),
      compaction,
      graphIndexes,
      keywordSearch,
      checks,
    });
    this.contexts = sqliteContexts(db, compaction);
    this.vectors = sqliteVectors(db, {
      available: loadVectorExtension(db),
      ann: this.ann,
      checks,
      location,
    });
    this.graph = sqliteGraph(db);
    this.history = sqliteHistory(db);
    this.plans = sqlitePlans(db);
    this.state = sqliteIndexState(db);
    try {
      graphIndexes.restore();
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

  explainFailure(error: unknown): unknown {
    return asIndexError(this.db, error);
  }

  /** Starts a large index's search threads now, not with the first search; true when searches split. */
  prepareSearchThreads(): Promise<boolean> {
    return this.keywordSearch.prepareThreads();
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
      contexts: contextCounts(this.db),
      graph: graphStats(this.db),
      history: historyStats(this.db),
    };
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    await this.keywordSearch.close();
    this.ann.save();
    this.db.close();
  }
}
