/** How the pipeline runs one strategy (`[context.strategies.settings.NAME]`). */
export interface StrategySettings {
  readonly timeoutSeconds: number;
  /** Most fragments a run may return; see fragmentLimit for a default one. */
  readonly maxFragments: number;
  /** No `max_fragments` was set: the limit grows with the request's budget (fragmentLimit). */
  readonly maxFragmentsScaled: boolean;
  /** Runs of the strategy allowed at once, across concurrent requests. */
  readonly maxWorkers: number;
  readonly circuitBreakerThreshold: number;
  readonly circuitBreakerCooldownSeconds: number;
  /** Largest share of a request's budget it may be allotted, 0..1. */
  readonly maxBudgetShare: number;
  readonly enabled: boolean;
}

/** The seed's defaults. */
export const DEFAULT_STRATEGY_SETTINGS: StrategySettings = {
  timeoutSeconds: 30,
  maxFragments: 100,
  maxFragmentsScaled: true,
  maxWorkers: 4,
  circuitBreakerThreshold: 3,
  circuitBreakerCooldownSeconds: 30,
  maxBudgetShare: 1,
  enabled: true,
};

/**
 * Tokens of budget per fragment a strategy may return when `max_fragments` is
 * not set: a hundred fragments fill a 4,000-token answer several times over
 * but can leave a 32,000-token one part empty while more of the code goes
 * unread. Those past the hundred are spare (ContextFragment.spare): they only
 * fill what the first ones leave, so a small budget's answer is unchanged.
 */
export const TOKENS_PER_FRAGMENT = 40;

/** The most fragments a run of a strategy with these settings may return for a budget. */
export function fragmentLimit(settings: StrategySettings, budget: number): number {
  if (!settings.maxFragmentsScaled) return settings.maxFragments;
  return Math.max(settings.maxFragments, Math.floor(budget / TOKENS_PER_FRAGMENT));
}

/**
 * What runs when nothing is configured (the seed's list): semantic search is
 * skipped while no embedder has written vectors, the navigator when the index
 * has no code graph.
 */
export const DEFAULT_ENABLED_STRATEGIES: readonly string[] = [
  "simple-keyword",
  "semantic-embedding",
  "breadth-depth-navigator",
];

/** A custom strategy named in a config file. */
export interface CustomStrategySpec {
  readonly name: string;
  /** Module path as written; relative paths are relative to `baseDir`. */
  readonly modulePath: string;
  readonly exportName: string;
  /** Folder of the config file that names it. */
  readonly baseDir: string;
  /** The config file, for messages. */
  readonly source: string;
}

export interface StrategyConfig {
  readonly enabled: readonly string[];
  /** Where `enabled` came from: a config file, or "default". */
  readonly enabledSource: string;
  readonly custom: readonly CustomStrategySpec[];
  /** Settings of a strategy, defaults filled in. */
  settingsFor(name: string): StrategySettings;
}
