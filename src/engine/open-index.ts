import { existsSync } from "node:fs";
import type { ResolvedConfig } from "../config/resolved-config.js";
import type { BreakerRecord } from "../core/breaker.js";
import type { Store } from "../core/store.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { ignoreIndexFolder } from "./engine-files.js";
import { followProject } from "./project-roots.js";

export interface OpenedIndex {
  readonly store: Store;
  /** The index file, null when the index lives in memory. */
  readonly file: string | null;
  /** True when this open created the file. */
  readonly created: boolean;
  /** The project's circuit breakers as last saved, by strategy. */
  readonly breakers: Map<string, BreakerRecord>;
}

/**
 * Opens (or creates, or keeps in memory) a project's index, points its roots at
 * where the project is now, and reads the project's breakers; a failure on the
 * way closes the store and names the index.
 */
export async function openIndex(
  root: string,
  indexPath: string,
  project: string,
  config: ResolvedConfig,
  ifMissing: "create" | "fail" | "in-memory",
): Promise<OpenedIndex> {
  const existed = existsSync(indexPath);
  const inMemory = !existed && ifMissing === "in-memory";
  const store = SqliteStore.open(inMemory ? ":memory:" : indexPath, {
    create: ifMissing !== "fail",
    fieldWeights: config.fieldWeights,
    annThreshold: config.embeddings.annThreshold,
  });
  if (!existed && !inMemory) ignoreIndexFolder(indexPath);
  try {
    if (!inMemory) await followProject(store, root, indexPath);
    const saved = await store.listBreakers(project);
    return {
      store,
      file: inMemory ? null : indexPath,
      created: !existed && !inMemory,
      breakers: new Map(saved.map((record) => [record.strategy, record])),
    };
  } catch (error) {
    await store.close();
    throw store.explainFailure(error);
  }
}
