import type { ResolvedConfig } from "../config/resolved-config.js";
import type { Embedder } from "../core/embedder.js";
import type { ContextFragment } from "../core/fragment.js";
import type { Reranker } from "../core/reranker.js";
import type { Store } from "../core/store.js";
import type { Backends } from "../core/strategy.js";
import type { TokenCounter } from "../core/token-counter.js";
import { CachedGraphSource } from "../engine/graph-source.js";
import { vectorBackend } from "../engine/vector-backend.js";
import { ProjectBreakers } from "../strategies/breaker-board.js";
import { buildRegistry } from "../strategies/build-registry.js";
import { StrategyPipeline } from "../strategies/strategy-pipeline.js";

export interface RankerOptions {
  readonly config: Pick<ResolvedConfig, "strategies" | "navigator" | "graph">;
  readonly strategies: readonly string[];
  readonly counter: TokenCounter;
  readonly projectRoot: string;
  /** Searches the store's vectors of this embedder too. */
  readonly embedder?: Embedder | null;
  readonly reranker?: Reranker | null;
}

/**
 * Ranks units through the full strategy pipeline (selection, allocation,
 * execution, merging), as `ctx query` does, with the given strategies enabled.
 * Breakers live in memory only: an evaluation leaves no trace in any project.
 */
export async function pipelineRanker(
  options: RankerOptions,
): Promise<(store: Store, query: string, depth: number) => Promise<ContextFragment[]>> {
  const { config, strategies, counter } = options;
  const registry = await buildRegistry(
    config.strategies,
    { counter, projectRoot: options.projectRoot },
    { navigator: config.navigator },
  );
  registry.assertEnabled(strategies, "--strategy");
  const pipeline = new StrategyPipeline({
    registry,
    settingsFor: config.strategies.settingsFor,
    counter,
    breakers: new ProjectBreakers(config.strategies.settingsFor),
  });
  const graphs = new WeakMap<Store, CachedGraphSource>();
  return async (store, query, depth) => {
    let graph = graphs.get(store);
    if (!graph) {
      graph = new CachedGraphSource(store);
      graphs.set(store, graph);
    }
    const backends: Backends = {
      text: store.documents,
      ...(config.graph ? { graph } : {}),
      ...(options.embedder ? { vector: vectorBackend(store, options.embedder) } : {}),
      ...(options.reranker ? { reranker: options.reranker } : {}),
    };
    const { candidates } = await pipeline.run(
      { task: query, budget: Number.MAX_SAFE_INTEGER, maxFragments: depth },
      backends,
      strategies,
    );
    return candidates.slice(0, depth);
  };
}
