import type { StrategyConfig } from "../config/strategy-config.js";
import type { ContextFragment } from "../core/fragment.js";
import type { Store } from "../core/store.js";
import type { TokenCounter } from "../core/token-counter.js";
import { ProjectBreakers } from "../strategies/breaker-board.js";
import { buildRegistry } from "../strategies/build-registry.js";
import { StrategyPipeline } from "../strategies/strategy-pipeline.js";

/**
 * Ranks units through the full strategy pipeline (selection, allocation,
 * execution, merging), as `ctx query` does, with the given strategies enabled.
 * Breakers live in memory only: an evaluation leaves no trace in any project.
 */
export async function pipelineRanker(
  config: StrategyConfig,
  strategies: readonly string[],
  counter: TokenCounter,
  projectRoot: string,
): Promise<(store: Store, query: string, depth: number) => Promise<ContextFragment[]>> {
  const registry = await buildRegistry(config, { counter, projectRoot });
  registry.assertEnabled(strategies, "--strategy");
  const pipeline = new StrategyPipeline({
    registry,
    settingsFor: config.settingsFor,
    counter,
    breakers: new ProjectBreakers(config.settingsFor),
  });
  return async (store, query, depth) => {
    const { candidates } = await pipeline.run(
      { task: query, budget: Number.MAX_SAFE_INTEGER, maxFragments: depth },
      { text: store },
      strategies,
    );
    return candidates.slice(0, depth);
  };
}
