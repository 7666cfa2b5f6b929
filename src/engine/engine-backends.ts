import type { ResolvedConfig } from "../config/resolved-config.js";
import type { Embedder } from "../core/embedder.js";
import type { GraphSource } from "../core/graph.js";
import type { Reranker } from "../core/reranker.js";
import type { Store } from "../core/store.js";
import type { Backends } from "../core/strategy.js";
import { type HistoryCache, temporalBackendFor } from "../history/git-temporal-backend.js";
import { storedFileRoles } from "./linguist-marks.js";
import { sharedSearches } from "./shared-searches.js";
import { vectorBackend } from "./vector-backend.js";

/**
 * What a query's strategies can use: full text always (for one query, its
 * strategies share equal searches); the code graph unless `[index] graph` is
 * off; vectors when the embedder has written some; history where it was read.
 */
export async function engineBackends(
  store: Store,
  config: ResolvedConfig,
  parts: {
    readonly embedder: Embedder | null;
    readonly reranker: Reranker | null;
    readonly graph: GraphSource;
    readonly plans: Backends["plans"];
    readonly history: HistoryCache;
  },
): Promise<Backends> {
  const temporal = await temporalBackendFor(store, config.history, parts.history);
  const { embedder } = parts;
  const embedded = embedder && (await store.vectors.embeddingCoverage(embedder.id)).embedded > 0;
  return {
    text: sharedSearches(store.documents),
    ...(embedder && embedded ? { vector: vectorBackend(store, embedder) } : {}),
    ...(parts.reranker ? { reranker: parts.reranker } : {}),
    ...(config.graph ? { graph: parts.graph } : {}),
    ...(temporal ? { temporal } : {}),
    plans: parts.plans,
    fileRoles: await storedFileRoles(store),
  };
}
