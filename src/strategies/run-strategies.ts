import type { BreakerState } from "../core/breaker.js";
import type { ContextFragment } from "../core/fragment.js";
import type { StrategyRun } from "../core/provenance.js";
import type {
  Backends,
  ContextRequest,
  ContextStrategyResult,
  PlanContext,
} from "../core/strategy.js";
import type { TokenCounter } from "../core/token-counter.js";
import { rankCandidates } from "../rank/rank-candidates.js";
import { allocateBudget } from "./allocate-budget.js";
import { executeStrategies } from "./execute-strategies.js";
import type { StrategyRegistry } from "./registry.js";
import { selectStrategies } from "./select-strategies.js";
import type { Semaphore } from "./semaphore.js";
import type { StrategySettings } from "./strategy-settings.js";

/** The breakers of one project, as the pipeline sees them. */
export interface BreakerBoard {
  state(strategy: string): BreakerState;
  recordSuccess(strategy: string): Promise<void>;
  recordFailure(strategy: string): Promise<void>;
}

export interface PipelineOptions {
  readonly registry: StrategyRegistry;
  readonly enabled: readonly string[];
  readonly settingsFor: (name: string) => StrategySettings;
  readonly backends: Backends;
  readonly counter: TokenCounter;
  readonly breakers: BreakerBoard;
  readonly semaphoreFor: (strategy: string, maxWorkers: number) => Semaphore;
  readonly plan?: PlanContext;
  readonly signal?: AbortSignal;
}

export interface PipelineOutput {
  /** Every strategy's fragments, scores made comparable, deduplicated, best first. */
  readonly candidates: ContextFragment[];
  /** Tokens allotted to each strategy that ran. */
  readonly allocation: ReadonlyMap<string, number>;
  readonly results: readonly ContextStrategyResult[];
  /** One entry per enabled strategy (and the fallback, if it ran), in that order. */
  readonly runs: readonly StrategyRun[];
  /** Copies removed as duplicates (same id or same content), with the id of the copy kept. */
  readonly duplicates: readonly { readonly fragment: ContextFragment; readonly of: string }[];
}

/**
 * Select → allocate → execute → rank (`rankCandidates`): the strategy half of
 * assembling context. Packing the candidates into the budget is the caller's
 * next step.
 */
export async function runStrategies(
  request: ContextRequest,
  options: PipelineOptions,
): Promise<PipelineOutput> {
  const { selected, skipped } = selectStrategies(request, {
    registry: options.registry,
    enabled: options.enabled,
    isDisabled: (name) => !options.settingsFor(name).enabled,
    breakerState: (name) => options.breakers.state(name),
    backends: options.backends,
  });
  const allocation = allocateBudget(
    selected.map(({ strategy, confidence }) => ({
      name: strategy.name,
      confidence,
      quality: strategy.capabilities.qualityScore,
      maxShare: options.settingsFor(strategy.name).maxBudgetShare,
    })),
    request.budget,
  );
  const results = await executeStrategies(
    selected.map(({ strategy }) => ({
      strategy,
      allocated: allocation.get(strategy.name) ?? 0,
      settings: options.settingsFor(strategy.name),
    })),
    {
      request,
      backends: options.backends,
      counter: options.counter,
      semaphoreFor: options.semaphoreFor,
      ...(options.plan ? { plan: options.plan } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  for (const result of results) {
    if (result.stats.failed === 1) await options.breakers.recordFailure(result.strategyName);
    else await options.breakers.recordSuccess(result.strategyName);
  }
  const weights = new Map(
    selected.map(({ strategy, confidence }) => [
      strategy.name,
      confidence * strategy.capabilities.qualityScore,
    ]),
  );
  const { candidates, duplicates } = await rankCandidates({
    task: request.task,
    budget: request.budget,
    results,
    weights,
    text: options.backends.text,
    counter: options.counter,
    ...(options.backends.reranker ? { reranker: options.backends.reranker } : {}),
    ...(options.backends.temporal ? { temporal: options.backends.temporal } : {}),
    ...(options.backends.fileRoles ? { roles: options.backends.fileRoles } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const runs = describeRuns(selected, skipped, results, allocation, options);
  return { candidates, allocation, results, runs, duplicates };
}

function describeRuns(
  selected: ReturnType<typeof selectStrategies>["selected"],
  skipped: ReturnType<typeof selectStrategies>["skipped"],
  results: readonly ContextStrategyResult[],
  allocation: ReadonlyMap<string, number>,
  options: PipelineOptions,
): StrategyRun[] {
  const runs: StrategyRun[] = [];
  const order = [
    ...options.enabled,
    ...selected.filter((s) => s.fallback).map((s) => s.strategy.name),
  ];
  for (const name of order) {
    const strategy = options.registry.get(name);
    const quality = strategy?.capabilities.qualityScore ?? 0;
    const index = selected.findIndex((entry) => entry.strategy.name === name);
    const result = results[index];
    const selection = selected[index];
    if (selection && result) {
      runs.push({
        name,
        status: "ran",
        confidence: selection.confidence,
        quality,
        fallback: selection.fallback,
        allocated: allocation.get(name) ?? 0,
        used: result.tokensUsed,
        fragments: result.fragments.length,
        totalFragments: result.totalFragments,
        executionTimeMs: result.executionTimeMs,
        errors: result.errors,
        breaker: options.breakers.state(name),
      });
      continue;
    }
    const skip = skipped.find((entry) => entry.name === name);
    if (!skip) continue;
    runs.push({
      name,
      status: skip.reason,
      confidence: skip.confidence,
      quality,
      fallback: false,
      allocated: 0,
      used: 0,
      fragments: 0,
      totalFragments: 0,
      executionTimeMs: 0,
      errors: skip.error ? [skip.error] : [],
      breaker: options.breakers.state(name),
    });
  }
  return runs;
}
