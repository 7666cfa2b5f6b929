import type { ResolvedConfig } from "../config/resolved-config.js";
import type { Store } from "../core/store.js";
import type { TokenCounter } from "../core/token-counter.js";
import type { IndexReport } from "../core/types.js";
import { DocumentChunker } from "../ingest/chunk/chunk-document.js";
import { InThreadPreparer } from "../ingest/in-thread-preparer.js";
import { type IndexProgress, indexResources } from "../ingest/index-resources.js";
import type { InlineContexts } from "../ingest/prepare-document.js";
import type { DocumentPreparer } from "../ingest/preparer.js";
import { documentSearchTexts } from "../ingest/stored-search-text.js";
import { WorkerPreparer } from "../ingest/worker-preparer.js";
import { compactInWorker } from "./compact-in-worker.js";

/** Starting threads costs more than it saves on a handful of changed files. */
const MIN_FILES_FOR_WORKERS = 48;

export interface IndexProjectOptions {
  readonly contexts: InlineContexts;
  readonly force: boolean;
  /** The index file, where the store has one (not in memory): compaction then runs in a worker. */
  readonly storeFile: string | null;
  readonly onProgress?: (progress: IndexProgress) => void;
}

/** Indexes roots with the configured limits, in worker threads when the run is large. */
export function indexProject(
  roots: readonly string[],
  store: Store,
  config: ResolvedConfig,
  counter: TokenCounter,
  options: IndexProjectOptions,
): Promise<IndexReport> {
  const preparerFor = (files: number): DocumentPreparer => {
    const inThread = () =>
      new InThreadPreparer(new DocumentChunker(config.chunking, counter), options.contexts);
    if (files < MIN_FILES_FOR_WORKERS || config.workers === 0) return inThread();
    const pool = WorkerPreparer.create(
      { limits: config.chunking, counter: counter.name, contexts: options.contexts },
      config.workers ?? undefined,
    );
    return pool ?? inThread();
  };
  const compact = async (): Promise<void> => {
    if (!(await store.compactionDue())) return;
    const ran = options.storeFile !== null && (await compactInWorker(options.storeFile));
    if (!ran) await store.compact(documentSearchTexts);
  };
  return indexResources(roots, {
    store,
    limits: config.hydration,
    preparerFor,
    force: options.force,
    compact,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}
