import type { ResolvedConfig } from "../config/resolved-config.js";
import type { Store } from "../core/store.js";
import type { TokenCounter } from "../core/token-counter.js";
import type { IndexReport } from "../core/types.js";
import { IN_THREAD_PARALLELISM, InThreadPreparer } from "../ingest/in-thread-preparer.js";
import { indexResources } from "../ingest/index-resources.js";
import type { IndexRun } from "../ingest/index-run.js";
import { LazyPreparer } from "../ingest/lazy-preparer.js";
import type { InlineContexts } from "../ingest/prepare-document.js";
import type { DocumentPreparer } from "../ingest/preparer.js";
import { documentSearchTexts } from "../ingest/stored-search-text.js";
import { WorkerPreparer } from "../ingest/worker-preparer.js";
import { readPathAliases } from "../languages/path-aliases.js";
import { compactInWorker } from "./compact-in-worker.js";

/**
 * Starting threads (each loads its own grammars and warms up its own code) costs
 * more than it saves below about this much to read: measured with a fresh `ctx
 * index` over three.js's src, 430 KB of changed files took 0.56 s in one thread
 * and 0.66 s with two workers, 1.5 MB about the same either way, 2.6 MB 1.74 s
 * against 1.55 s. Lower than the break-even, since workers also keep a serving
 * process's thread free for queries.
 */
const MIN_BYTES_FOR_WORKERS = 1024 * 1024;

export interface IndexProjectOptions {
  readonly contexts: InlineContexts;
  /** The index file, where the store has one (not in memory): compaction then runs in a worker. */
  readonly storeFile: string | null;
  readonly run: IndexRun;
}

/** Indexes roots with the configured limits, in worker threads when the run is large. */
export function indexProject(
  roots: readonly string[],
  store: Store,
  config: ResolvedConfig,
  counter: TokenCounter,
  options: IndexProjectOptions,
): Promise<IndexReport> {
  const preparerFor = (changedBytes: number, root: string): DocumentPreparer => {
    const aliases = config.graph ? readPathAliases(root) : null;
    const inThread = () =>
      new LazyPreparer(IN_THREAD_PARALLELISM, async () => {
        const { DocumentChunker } = await import("../ingest/chunk/chunk-document.js");
        return new InThreadPreparer(
          new DocumentChunker(config.chunking, counter, config.graph, aliases),
          options.contexts,
        );
      });
    if (changedBytes < MIN_BYTES_FOR_WORKERS || config.workers === 0) return inThread();
    const pool = WorkerPreparer.create(
      {
        limits: config.chunking,
        counter: counter.name,
        contexts: options.contexts,
        graph: config.graph,
        aliases,
      },
      config.workers ?? undefined,
    );
    return pool ?? inThread();
  };
  const compact = async (): Promise<void> => {
    if (!(await store.documents.compactionDue())) return;
    const ran = options.storeFile !== null && (await compactInWorker(options.storeFile));
    if (!ran) await store.documents.compact(documentSearchTexts);
  };
  return indexResources(roots, {
    store,
    limits: config.hydration,
    preparerFor,
    compact,
    run: options.run,
  });
}
