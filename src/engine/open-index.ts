import { existsSync } from "node:fs";
import type { ResolvedConfig } from "../config/resolved-config.js";
import type { BreakerRecord } from "../core/breaker.js";
import type { Store } from "../core/store.js";
import { isPostgresUrl } from "../store/postgres/connection-errors.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { ignoreIndexFolder } from "./engine-files.js";
import { followProject } from "./project-roots.js";

export interface OpenedIndex {
  readonly store: Store;
  /** The index file, null when the index lives in memory or on a server. */
  readonly file: string | null;
  /** Where the index lives, fit to print: the file, or the server's URL without its password. */
  readonly location: string;
  /** True when this open created the file. */
  readonly created: boolean;
  /** The project's circuit breakers as last saved, by strategy. */
  readonly breakers: Map<string, BreakerRecord>;
}

/**
 * Opens (or creates, or keeps in memory) a project's index, in a file or on a
 * PostgreSQL server (`location` a postgres:// URL), points its roots at where
 * the project is now, and reads the project's breakers; a failure on the way
 * closes the store and names the index.
 */
export async function openIndex(
  root: string,
  location: string,
  project: string,
  config: ResolvedConfig,
  ifMissing: "create" | "fail" | "in-memory",
): Promise<OpenedIndex> {
  if (isPostgresUrl(location)) return openServerIndex(location, project, config, ifMissing);
  const indexPath = location;
  const existed = existsSync(indexPath);
  const inMemory = !existed && ifMissing === "in-memory";
  const store = SqliteStore.open(inMemory ? ":memory:" : indexPath, {
    create: ifMissing !== "fail",
    fieldWeights: config.fieldWeights,
    annThreshold: config.embeddings.annThreshold,
    ...(config.searchThreads !== null ? { searchThreads: config.searchThreads } : {}),
  });
  if (!existed && !inMemory) ignoreIndexFolder(indexPath);
  try {
    // An index opened read-only (its disk full, its file system read-only) stays where it points.
    if (!inMemory && store.readOnly === null) await followProject(store, root, indexPath);
    return {
      store,
      file: inMemory ? null : indexPath,
      location: indexPath,
      created: !existed && !inMemory,
      breakers: await breakersOf(store, project),
    };
  } catch (error) {
    await store.close();
    throw store.explainFailure(error);
  }
}

/** The project's index in a schema of a PostgreSQL database, shared with other projects. */
async function openServerIndex(
  url: string,
  project: string,
  config: ResolvedConfig,
  ifMissing: "create" | "fail" | "in-memory",
): Promise<OpenedIndex> {
  // Loaded only here: the PostgreSQL client stays out of every command that uses the file.
  const { PostgresStore } = await import("../store/postgres/postgres-store.js");
  const store = await PostgresStore.open(url, {
    project,
    schema: config.storeServer.schema,
    create: ifMissing !== "fail",
    fieldWeights: config.fieldWeights,
  });
  try {
    return {
      store,
      file: null,
      location: store.location,
      created: false,
      breakers: await breakersOf(store, project),
    };
  } catch (error) {
    await store.close();
    throw store.explainFailure(error);
  }
}

async function breakersOf(store: Store, project: string): Promise<Map<string, BreakerRecord>> {
  const saved = await store.state.listBreakers(project);
  return new Map(saved.map((record) => [record.strategy, record]));
}
