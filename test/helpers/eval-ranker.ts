import { resolveStrategyConfig } from "../../src/config/strategy-config.js";
import { pipelineRanker } from "../../src/eval/pipeline-ranker.js";
import type { EvalOptions } from "../../src/eval/run-eval.js";
import { DEFAULT_NAVIGATOR_SETTINGS } from "../../src/strategies/builtins/navigator-settings.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";

/** The evaluation's ranking through these strategies with the default settings (graph on). */
export function defaultRanker(
  strategies: readonly string[],
  projectRoot: string,
): Promise<EvalOptions["rank"]> {
  return pipelineRanker({
    config: {
      strategies: resolveStrategyConfig([]),
      navigator: DEFAULT_NAVIGATOR_SETTINGS,
      graph: true,
    },
    strategies,
    counter: o200kCounter,
    projectRoot,
  });
}
