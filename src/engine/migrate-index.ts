import { StoreError } from "../core/errors.js";
import { documentSearchTexts } from "../ingest/stored-search-text.js";
import { PostgresStore } from "../store/postgres/postgres-store.js";
import { SqliteIndexReader } from "../store/sqlite/index-reader.js";
import { INDEXING_WAIT_MS } from "./run-index.js";

/** What `ctx migrate` copied. */
export interface MigrationReport {
  readonly resources: number;
  readonly documents: number;
  readonly chunks: number;
  readonly commits: number;
  readonly vectors: number;
  readonly cachedContexts: number;
  readonly plans: number;
}

/** Documents per transaction, as an index run writes them. */
const DOCUMENT_BATCH = 64;
const COMMIT_BATCH = 500;
const ROW_BATCH = 1000;
/** Meta keys that say what the chunks were made with: copied, so the next run re-chunks nothing. */
const COPIED_META = ["ingest_version"];

/**
 * Copies an SQLite index into a project of a PostgreSQL index: documents and
 * chunks with their contexts as stored, the graph, git history, vectors, the
 * context cache, plans, project settings and breakers, so nothing paid for is
 * paid again. The project must hold no index yet; it is locked while copied.
 */
export async function migrateIndex(
  from: string,
  to: string,
  target: { readonly project: string; readonly schema: string },
): Promise<MigrationReport> {
  const reader = new SqliteIndexReader(from);
  try {
    const store = await PostgresStore.open(to, { ...target, create: true });
    try {
      if ((await store.documents.listResources()).length > 0) {
        throw new StoreError(
          store.location,
          `project ${target.project} already holds an index there; copy into another project ([store] project) or schema ([store] schema)`,
        );
      }
      const lock = await store.state.lockIndexing(INDEXING_WAIT_MS);
      try {
        return await copy(reader, store);
      } finally {
        await lock.release();
      }
    } finally {
      await store.close();
    }
  } finally {
    reader.close();
  }
}

async function copy(reader: SqliteIndexReader, store: PostgresStore): Promise<MigrationReport> {
  let documents = 0;
  let chunks = 0;
  let commits = 0;
  const resources = reader.resources();
  for (const resource of resources) {
    await store.importResource(resource);
    for (const batch of reader.documents(resource.id, documentSearchTexts, DOCUMENT_BATCH)) {
      await store.documents.writeDocuments(batch);
      documents += batch.length;
      chunks += batch.reduce((sum, document) => sum + document.chunks.length, 0);
    }
    const history = reader.history(resource.id);
    for (let start = 0; start < history.commits.length; start += COMMIT_BATCH) {
      const last = start + COMMIT_BATCH >= history.commits.length;
      await store.history.writeHistory({
        resourceId: resource.id,
        add: history.commits.slice(start, start + COMMIT_BATCH),
        remove: [],
        relink: last,
        readAt: last ? history.head : null,
      });
    }
    if (history.identifiers.length > 0)
      await store.history.setCommitIdentifiers(resource.id, history.identifiers);
    commits += history.commits.length;
  }
  let vectors = 0;
  for (const { embedderId, dimensions, entries } of reader.vectors(ROW_BATCH)) {
    await store.vectors.putEmbeddings(embedderId, dimensions, entries);
    vectors += entries.length;
  }
  const cached = reader.cachedContexts();
  for (let start = 0; start < cached.length; start += ROW_BATCH) {
    await store.contexts.putCachedContexts(cached.slice(start, start + ROW_BATCH));
  }
  for (const key of COPIED_META) {
    const value = reader.meta(key);
    if (value !== null) await store.state.setMeta(key, value);
  }
  for (const { name, strategies } of reader.projectSettings()) {
    await store.state.setProjectStrategies(name, strategies);
  }
  for (const { project, record } of reader.breakers())
    await store.state.saveBreaker(project, record);
  const plans = reader.plans();
  await store.importPlans(plans);
  return {
    resources: resources.length,
    documents,
    chunks,
    commits,
    vectors,
    cachedContexts: cached.length,
    plans: plans.length,
  };
}
