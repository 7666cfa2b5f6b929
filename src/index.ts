/** Context Engine as a library: open a project, index it, assemble context for tasks. */
export { BudgetTooSmallError } from "./assemble/pack-to-budget.js";
export { OUTPUT_FORMATS, type OutputFormat } from "./assemble/renderers.js";
export type { ResolvedConfig } from "./config/resolved-config.js";
export type { BreakerRecord, BreakerState } from "./core/breaker.js";
export {
  ConfigError,
  CtxError,
  EvalDataError,
  IndexMissingError,
  PathNotFoundError,
  SchemaTooNewError,
  StoreError,
  UsageError,
} from "./core/errors.js";
export type { ContextFragment, DetailDepth, FragmentSource, Tier } from "./core/fragment.js";
export type {
  FileGraph,
  GraphBackend,
  ReferenceKind,
  ReferenceRecord,
  SymbolKind,
  SymbolRecord,
} from "./core/graph.js";
export { SYMBOL_KINDS } from "./core/graph.js";
export type { StrategyRun } from "./core/provenance.js";
export type {
  ContextStore,
  DocumentStore,
  DocumentToStore,
  IndexState,
  SearchText,
  ServerStorage,
  Store,
  StoreStats,
  VectorStore,
} from "./core/store.js";
export {
  type Backends,
  type ContextRequest,
  type ContextStrategy,
  type ContextStrategyResult,
  DEFAULT_CAPABILITIES,
  type PlanContext,
  type StrategyCapabilities,
  type StrategyContext,
  type TokenBudget,
} from "./core/strategy.js";
export type { TextBackend, TextHit, TextQuery } from "./core/text-backend.js";
export type { TokenCounter, WordVocabulary } from "./core/token-counter.js";
export type {
  ChunkKind,
  IndexReport,
  Resource,
  SecretFile,
  SkipCounts,
  SkipReason,
  StoredChunk,
} from "./core/types.js";
export {
  ContextEngine,
  type EnabledStrategies,
  type OpenOptions,
  type QueryOptions,
  type QueryResult,
  type StatusReport,
  type StrategyContribution,
} from "./engine/context-engine.js";
export type { SymbolReferences } from "./engine/symbol-lookup.js";
export { readBeirDataset } from "./eval/beir.js";
export { type EvalOptions, type EvalReport, runEval } from "./eval/run-eval.js";
export { PostgresStore, type PostgresStoreOptions } from "./store/postgres/postgres-store.js";
export { SqliteStore } from "./store/sqlite/sqlite-store.js";
export { SimpleKeywordStrategy } from "./strategies/builtins/simple-keyword.js";
export { StrategyRegistry, StrategyRegistryError } from "./strategies/registry.js";
export { FALLBACK_CHAIN } from "./strategies/select-strategies.js";
export {
  DEFAULT_STRATEGY_SETTINGS,
  type StrategySettings,
} from "./strategies/strategy-settings.js";
export { indexTerms, queryTerms } from "./text/code-tokenizer.js";
export { estimateCounter } from "./tokens/estimate-counter.js";
export { o200kCounter } from "./tokens/o200k-counter.js";
export {
  ProjectWatcher,
  type WatchOptions,
  type WatchReport,
} from "./watch/project-watcher.js";
