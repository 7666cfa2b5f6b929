import type { ContextFragment } from "../core/fragment.js";
import type {
  Backends,
  ContextRequest,
  ContextStrategy,
  ContextStrategyResult,
  PlanContext,
} from "../core/strategy.js";
import type { TokenCounter } from "../core/token-counter.js";
import type { Semaphore } from "./semaphore.js";
import { fragmentLimit, type StrategySettings } from "./strategy-settings.js";
import { validateFragments } from "./validate-fragments.js";

export interface ExecutionPlan {
  readonly strategy: ContextStrategy;
  readonly allocated: number;
  readonly settings: StrategySettings;
}

export interface ExecuteOptions {
  readonly request: ContextRequest;
  readonly backends: Backends;
  readonly counter: TokenCounter;
  /** The per-strategy limit on concurrent runs, shared across requests. */
  readonly semaphoreFor: (strategy: string, maxWorkers: number) => Semaphore;
  readonly plan?: PlanContext;
  readonly signal?: AbortSignal;
}

/** A strategy ran past its timeout_seconds. */
class StrategyTimeout extends Error {
  constructor(seconds: number) {
    super(`timed out after ${seconds} s`);
  }
}

/**
 * Runs the planned strategies concurrently. Each is aborted at its timeout
 * through its AbortSignal (and no longer waited for, should it ignore the
 * signal); failures, garbage and over-budget output are recorded as errors on
 * that strategy's result and never fail the request.
 */
export function executeStrategies(
  plans: readonly ExecutionPlan[],
  options: ExecuteOptions,
): Promise<ContextStrategyResult[]> {
  return Promise.all(plans.map((plan) => runOne(plan, options)));
}

async function runOne(
  plan: ExecutionPlan,
  options: ExecuteOptions,
): Promise<ContextStrategyResult> {
  const { strategy, allocated, settings } = plan;
  const limit = fragmentLimit(settings, options.request.budget);
  const started = performance.now();
  const controller = new AbortController();
  const timeoutMs = settings.timeoutSeconds * 1000;
  const timer = setTimeout(
    () => controller.abort(new StrategyTimeout(settings.timeoutSeconds)),
    timeoutMs,
  );
  const onOuterAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onOuterAbort, { once: true });
  const errors: string[] = [];
  let threw = false;
  let output: unknown = [];
  let release: (() => void) | null = null;
  try {
    release = await options
      .semaphoreFor(strategy.name, settings.maxWorkers)
      .acquire(controller.signal);
    const maxFragments = Math.min(
      options.request.maxFragments ?? settings.maxFragments,
      settings.maxFragments,
    );
    const spare = options.request.maxFragments === undefined ? limit - settings.maxFragments : 0;
    const request = {
      ...options.request,
      maxFragments,
      ...(spare > 0 ? { spareFragments: spare } : {}),
    };
    const budget = { total: options.request.budget, allocated };
    output = await Promise.race([
      strategy.assemble(request, options.backends, budget, options.plan, controller.signal),
      abortion(controller.signal),
    ]);
  } catch (error) {
    errors.push(describe(controller.signal.aborted ? (controller.signal.reason ?? error) : error));
    threw = true;
    output = [];
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onOuterAbort);
    release?.();
  }
  const { fragments, malformed, notAnArray } = validateFragments(
    output,
    strategy.name,
    options.counter,
  );
  if (notAnArray) errors.push("returned something other than an array of fragments");
  if (malformed > 0) errors.push(`returned ${malformed} malformed fragment(s); they were dropped`);
  const totalFragments = fragments.length;
  const cap =
    options.request.maxFragments === undefined
      ? limit
      : Math.min(options.request.maxFragments, settings.maxFragments);
  const kept = capFragments(fragments, cap, options.request.budget);
  if (kept.overBudget) {
    errors.push(
      `returned ${kept.overBudget} fragment(s) past the request's budget of ${options.request.budget} tokens; they were dropped`,
    );
  }
  // Past the first max_fragments, what a larger budget let the strategy return is spare.
  const returned = kept.fragments.map((fragment, index) =>
    index >= settings.maxFragments ? { ...fragment, spare: true } : fragment,
  );
  return {
    strategyName: strategy.name,
    fragments: returned,
    totalFragments,
    tokensUsed: returned.reduce((sum, fragment) => sum + fragment.tokens, 0),
    executionTimeMs: Math.round((performance.now() - started) * 100) / 100,
    errors,
    leftOut: kept.leftOut,
    // Failed: nothing usable came back (threw, timed out, not an array, all malformed).
    stats: {
      malformed,
      allocated,
      maxFragments: cap,
      failed: threw || notAnArray || (malformed > 0 && totalFragments === 0) ? 1 : 0,
    },
  };
}

/** Keeps at most `max` fragments whose tokens fit the request's whole budget. */
function capFragments(
  fragments: readonly ContextFragment[],
  max: number,
  budget: number,
): {
  fragments: ContextFragment[];
  overBudget: number;
  leftOut: { fragment: ContextFragment; reason: "below-cut" | "over-budget" }[];
} {
  const kept: ContextFragment[] = [];
  const leftOut: { fragment: ContextFragment; reason: "below-cut" | "over-budget" }[] = fragments
    .slice(max)
    .map((fragment) => ({ fragment, reason: "below-cut" }));
  let tokens = 0;
  let overBudget = 0;
  for (const fragment of fragments.slice(0, max)) {
    if (tokens + fragment.tokens > budget) {
      overBudget++;
      leftOut.push({ fragment, reason: "over-budget" });
      continue;
    }
    tokens += fragment.tokens;
    kept.push(fragment);
  }
  return { fragments: kept, overBudget, leftOut };
}

function abortion(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message.split("\n")[0] ?? error.name;
  return `failed: ${String(error)}`;
}
