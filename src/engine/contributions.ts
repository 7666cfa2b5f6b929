import type { ContextFragment } from "../core/fragment.js";
import type { StrategyRun } from "../core/provenance.js";
import type { StrategyContribution } from "./engine-options.js";

/** Each strategy's run, with how many of its fragments (and tokens) made it into the output. */
export function contributions(
  runs: readonly StrategyRun[],
  packed: readonly ContextFragment[],
): StrategyContribution[] {
  return runs.map((run) => {
    const mine = packed.filter((fragment) => fragment.strategy === run.name);
    return {
      ...run,
      packedFragments: mine.length,
      packedTokens: mine.reduce((sum, fragment) => sum + fragment.tokens, 0),
    };
  });
}
