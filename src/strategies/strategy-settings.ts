/** How the pipeline runs one strategy (`[context.strategies.settings.NAME]`). */
export interface StrategySettings {
  readonly timeoutSeconds: number;
  readonly maxFragments: number;
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
  maxWorkers: 4,
  circuitBreakerThreshold: 3,
  circuitBreakerCooldownSeconds: 30,
  maxBudgetShare: 1,
  enabled: true,
};

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
