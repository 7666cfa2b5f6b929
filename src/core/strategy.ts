import type { FileRoles } from "./file-roles.js";
import type { ContextFragment } from "./fragment.js";
import type { GraphSource } from "./graph.js";
import type { TemporalBackend } from "./history.js";
import type { PlanSource } from "./plans.js";
import type { Reranker } from "./reranker.js";
import type { TextBackend, VectorBackend } from "./text-backend.js";
import type { TokenCounter } from "./token-counter.js";

/** What a strategy needs and how good it is believed to be. */
export interface StrategyCapabilities {
  /** Needs the full-text backend. */
  readonly usesText: boolean;
  /** Needs the vector backend. */
  readonly usesVector: boolean;
  /** Needs the code graph backend. */
  readonly usesGraph: boolean;
  /** Needs temporal (cold-tier) data such as git history. */
  readonly usesTemporal: boolean;
  /** Resource kinds it supports; empty means all. */
  readonly resourceTypes: readonly string[];
  /** Intrinsic quality, 0..1; the eval harness measures the real figure. */
  readonly qualityScore: number;
  readonly supportsDepthBreadth: boolean;
  readonly supportsPlanHierarchy: boolean;
  readonly supportsTemporal: boolean;
}

export const DEFAULT_CAPABILITIES: StrategyCapabilities = {
  usesText: false,
  usesVector: false,
  usesGraph: false,
  usesTemporal: false,
  resourceTypes: [],
  qualityScore: 0.5,
  supportsDepthBreadth: false,
  supportsPlanHierarchy: false,
  supportsTemporal: false,
};

/** What an agent or user asks context for. */
export interface ContextRequest {
  /** The task or question, in the user's words. */
  readonly task: string;
  /** Token budget for the whole rendered context. */
  readonly budget: number;
  /** Restrict to these relative paths or path prefixes. */
  readonly paths?: readonly string[];
  /** Most fragments a strategy should return. */
  readonly maxFragments?: number;
  /**
   * How many more it may return past those for what the others leave of a
   * large budget (`max_fragments` unset): they are packed after every other
   * candidate. A strategy may ignore it.
   */
  readonly spareFragments?: number;
  /**
   * What the user is working on: paths (files or folders, relative to the
   * project root) and/or symbol names. Graph-aware strategies start from them.
   */
  readonly focus?: readonly string[];
  /** The plan the agent works in: its decisions and its ancestors' are context. */
  readonly planId?: string;
}

/** The share of the budget one strategy may fill. */
export interface TokenBudget {
  /** The request's whole budget. */
  readonly total: number;
  /** What this strategy is allotted. */
  readonly allocated: number;
}

/** The open plan an agent works on, for plan-aware strategies. */
export interface PlanContext {
  readonly planId: string;
  readonly parentIds: readonly string[];
}

/** The backends available to strategies for one request; a missing one is not available. */
export interface Backends {
  /** Full-text (BM25) search over chunks. */
  readonly text?: TextBackend;
  /** Nearest-neighbour search over chunk vectors, when an embedder is configured and has run. */
  readonly vector?: VectorBackend;
  /** Re-scores top candidates, when a reranker is configured. */
  readonly reranker?: Reranker;
  /** The code graph, when the index extracts one (`[index] graph`). */
  readonly graph?: GraphSource;
  /** Git history, when a root is a git checkout whose history has been read (`[history]`). */
  readonly temporal?: TemporalBackend;
  /** The project's plans and decisions. */
  readonly plans?: PlanSource;
  /** What each file is for, as its path says and as the project marks it; default: its path. */
  readonly fileRoles?: FileRoles;
}

/**
 * What a custom strategy module receives when it is constructed (or its
 * factory called): `new MyStrategy(context)` or `createMyStrategy(context)`.
 */
export interface StrategyContext {
  /** The engine's token counter: fragments' `tokens` should use it. */
  readonly counter: TokenCounter;
  /** The project root folder. */
  readonly projectRoot: string;
}

/** A pluggable retrieval strategy (see design.md, "The strategy pipeline"). */
export interface ContextStrategy {
  readonly name: string;
  readonly capabilities: StrategyCapabilities;
  /** Confidence, 0..1, that this strategy can serve the request with these backends. */
  canHandle(request: ContextRequest, backends: Backends): number;
  /**
   * Fragments, best first. Those within `budget.allocated` tokens are the
   * strategy's share; it may add further candidates up to `budget.total`, which
   * fill what other strategies leave unused. Should stop when `signal` aborts.
   */
  assemble(
    request: ContextRequest,
    backends: Backends,
    budget: TokenBudget,
    plan?: PlanContext,
    signal?: AbortSignal,
  ): Promise<ContextFragment[]>;
  explain(): string;
}

/** One strategy's output within a request, with what it cost. */
export interface ContextStrategyResult {
  readonly strategyName: string;
  readonly fragments: readonly ContextFragment[];
  /** Fragments found before budget and count limits. */
  readonly totalFragments: number;
  readonly tokensUsed: number;
  readonly executionTimeMs: number;
  readonly errors: readonly string[];
  readonly stats: Readonly<Record<string, number | string>>;
  /** Fragments it returned that the executor did not keep, and why. */
  readonly leftOut?: readonly {
    readonly fragment: ContextFragment;
    /** Past `max_fragments`, or past the request's whole budget. */
    readonly reason: "below-cut" | "over-budget";
  }[];
}
