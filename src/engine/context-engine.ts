import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { type PackResult, packToBudget } from "../assemble/pack-to-budget.js";
import { type OutputFormat, rendererFor } from "../assemble/renderers.js";
import { loadConfig } from "../config/load-config.js";
import type { ResolvedConfig } from "../config/resolved-config.js";
import { UsageError } from "../core/errors.js";
import type { Store, StoreStats } from "../core/store.js";
import type { ContextStrategy } from "../core/strategy.js";
import type { TextHit } from "../core/text-backend.js";
import type { TokenCounter } from "../core/token-counter.js";
import type { IndexReport, Resource } from "../core/types.js";
import { DocumentChunker } from "../ingest/chunk/chunk-document.js";
import { InThreadPreparer } from "../ingest/in-thread-preparer.js";
import { type IndexProgress, indexResources } from "../ingest/index-resources.js";
import type { DocumentPreparer } from "../ingest/preparer.js";
import { WorkerPreparer } from "../ingest/worker-preparer.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { SimpleKeywordStrategy } from "../strategies/builtins/simple-keyword.js";
import { queryTerms } from "../text/code-tokenizer.js";
import { createTokenCounter } from "../tokens/create-counter.js";
import { findProjectRoot, indexPathFor } from "./locate-project.js";

export interface OpenOptions {
  /** A folder inside the project (default: the working folder). */
  readonly start?: string;
  /** Index file, overriding the configured one; relative to `cwd`. */
  readonly db?: string;
  /** Create the index when missing (default true); false makes a missing index an error. */
  readonly create?: boolean;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

export interface QueryOptions {
  readonly task: string;
  readonly budget: number;
  readonly format?: OutputFormat;
  /** Only fragments under these paths (relative to a root). */
  readonly paths?: readonly string[];
}

export interface QueryResult extends PackResult {
  readonly task: string;
  readonly budget: number;
  readonly format: OutputFormat;
  readonly candidates: number;
}

export interface StatusReport {
  readonly root: string;
  readonly indexPath: string;
  readonly indexBytes: number;
  readonly store: StoreStats;
  readonly resources: readonly Resource[];
  readonly tokenCounter: string;
  readonly configFiles: readonly string[];
}

/**
 * The library's entry point: one project, its configuration and its index.
 * The CLI (and later the MCP server) are thin layers over these methods.
 */
export class ContextEngine {
  readonly root: string;
  readonly indexPath: string;
  readonly config: ResolvedConfig;
  readonly store: Store;
  readonly counter: TokenCounter;
  /** True when this open created the index file. */
  readonly created: boolean;
  private readonly keyword: ContextStrategy;

  private constructor(
    root: string,
    indexPath: string,
    config: ResolvedConfig,
    store: Store,
    created: boolean,
  ) {
    this.root = root;
    this.indexPath = indexPath;
    this.config = config;
    this.store = store;
    this.created = created;
    this.counter = createTokenCounter(config.tokens.counter);
    this.keyword = new SimpleKeywordStrategy(this.counter);
  }

  static open(options: OpenOptions = {}): ContextEngine {
    const cwd = options.cwd ?? process.cwd();
    const root = findProjectRoot(resolve(cwd, options.start ?? "."));
    const config = loadConfig(root, options.env);
    const indexPath = indexPathFor(root, config.storePath, options.db, cwd);
    const existed = existsSync(indexPath);
    const store = SqliteStore.open(indexPath, {
      create: options.create ?? true,
      fieldWeights: config.fieldWeights,
    });
    if (!existed) ignoreIndexFolder(indexPath);
    return new ContextEngine(root, indexPath, config, store, !existed);
  }

  /**
   * Indexes `paths` (default: the roots the index already covers, or the project
   * root for a new index), adding any new root to the index.
   */
  async index(
    paths?: readonly string[],
    onProgress?: (progress: IndexProgress) => void,
  ): Promise<IndexReport> {
    const roots =
      paths && paths.length > 0 ? paths.map((path) => resolve(path)) : await this.coveredRoots();
    return indexResources(roots, {
      store: this.store,
      limits: this.config.hydration,
      preparerFor: (files) => this.preparerFor(files),
      ...(onProgress ? { onProgress } : {}),
    });
  }

  /** Re-indexes what changed under the roots the index covers. */
  refresh(onProgress?: (progress: IndexProgress) => void): Promise<IndexReport> {
    return this.index(undefined, onProgress);
  }

  /** Assembles context for a task within a token budget. */
  async query(options: QueryOptions): Promise<QueryResult> {
    if (!Number.isInteger(options.budget) || options.budget <= 0) {
      throw new UsageError(
        `budget must be a positive whole number of tokens, got ${options.budget}`,
      );
    }
    const format = options.format ?? this.config.query.format;
    const limit = Math.floor(options.budget * (1 - this.config.tokens.safetyMargin));
    const candidates = await this.keyword.assemble(
      { task: options.task, budget: limit, ...(options.paths ? { paths: options.paths } : {}) },
      { text: this.store },
      { total: limit, allocated: limit },
    );
    const packed = packToBudget(candidates, {
      task: options.task,
      budget: options.budget,
      limit,
      renderer: rendererFor(format),
      counter: this.counter,
    });
    return {
      ...packed,
      task: options.task,
      budget: options.budget,
      format,
      candidates: candidates.length,
    };
  }

  /** Ranked chunks for a keyword query, best first. */
  search(query: string, limit: number, paths?: readonly string[]): Promise<TextHit[]> {
    if (!Number.isInteger(limit) || limit <= 0) {
      throw new UsageError(`limit must be a positive whole number, got ${limit}`);
    }
    return this.store.searchText({
      terms: queryTerms(query),
      limit,
      ...(paths ? { pathPrefixes: paths } : {}),
    });
  }

  async status(): Promise<StatusReport> {
    return {
      root: this.root,
      indexPath: this.indexPath,
      indexBytes: fileSize(this.indexPath) + fileSize(`${this.indexPath}-wal`),
      store: await this.store.stats(),
      resources: await this.store.listResources(),
      tokenCounter: this.counter.name,
      configFiles: this.config.sources,
    };
  }

  /** Paths relative to the project root, for display. */
  displayPath(path: string): string {
    const rel = relative(this.root, path);
    return rel === "" ? "." : rel.startsWith("..") ? path : rel;
  }

  async close(): Promise<void> {
    await this.store.close();
  }

  private async coveredRoots(): Promise<string[]> {
    const resources = await this.store.listResources();
    return resources.length > 0 ? resources.map((resource) => resource.root) : [this.root];
  }

  private preparerFor(files: number): DocumentPreparer {
    const { workers } = this.config;
    const chunker = () => new DocumentChunker(this.config.chunking, this.counter);
    // Starting threads costs more than it saves on a handful of changed files.
    if (files < 48 || workers === 0) return new InThreadPreparer(chunker());
    const pool = WorkerPreparer.create(
      { limits: this.config.chunking, counter: this.counter.name },
      workers ?? undefined,
    );
    return pool ?? new InThreadPreparer(chunker());
  }
}

/** A new `.ctx` folder ignores itself, so git (and `git ls-files`) never list the index. */
function ignoreIndexFolder(indexPath: string): void {
  const folder = dirname(indexPath);
  if (!folder.endsWith(".ctx")) return;
  const ignoreFile = join(folder, ".gitignore");
  if (existsSync(ignoreFile)) return;
  mkdirSync(folder, { recursive: true });
  writeFileSync(ignoreFile, "*\n");
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
