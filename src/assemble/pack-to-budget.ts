import { CtxError } from "../core/errors.js";
import type { ContextFragment, DetailDepth } from "../core/fragment.js";
import type { TokenCounter } from "../core/token-counter.js";
import { reduceDetail } from "./detail-depth.js";
import { compareForOutput, mergeFragments } from "./merge-fragments.js";
import { type Renderer, renderAll } from "./renderers.js";

/** The budget cannot hold even an empty rendering of the request. */
export class BudgetTooSmallError extends CtxError {
  constructor(budget: number, minimum: number) {
    super(
      "budget_too_small",
      `budget ${budget} is too small: the output needs at least ${minimum} tokens even with no fragments; raise --budget`,
    );
  }
}

export interface PackOptions {
  readonly task: string;
  /** The budget as the user gave it (rendered in the output). */
  readonly budget: number;
  /** What the output may really use: the budget less any safety margin. */
  readonly limit: number;
  readonly renderer: Renderer;
  readonly counter: TokenCounter;
  /**
   * Tokens allotted to each strategy: its fragments are packed first within its
   * share, then what is left of the budget goes to the best remaining fragments
   * of any strategy. Without it, all candidates compete for the whole budget.
   */
  readonly allocation?: ReadonlyMap<string, number>;
}

export interface PackResult {
  readonly fragments: ContextFragment[];
  readonly output: string;
  /** Tokens of `output` by the counter. */
  readonly tokensUsed: number;
  /** Candidates left out for lack of budget. */
  readonly dropped: number;
  /** Candidates shown at a lower detail depth (signature or outline) to fit. */
  readonly reduced: number;
}

const DEPTHS: readonly DetailDepth[] = ["full", "signature", "outline"];

/**
 * Packs candidates into a rendering that never exceeds the limit. First each
 * strategy's best fragments within its allotted share, then the best of the
 * rest within what remains. A fragment that does not fit whole is tried as its
 * signature and doc comment, then as its declaration line, before it is dropped.
 * Adjacent or overlapping ranges of one file are merged (saving their headers).
 * The final output is counted exactly and trimmed from the bottom if it runs over.
 */
export function packToBudget(
  candidates: readonly ContextFragment[],
  options: PackOptions,
): PackResult {
  const { renderer, limit, task, budget } = options;
  const count = memoize((text: string) => options.counter.count(text));
  const emptyCost = count(renderAll(renderer, task, budget, budget, []));
  if (emptyCost > limit) throw new BudgetTooSmallError(budget, emptyCost);

  const frame = count(renderer.prefix(task, budget, budget)) + count(renderer.suffix(1));
  const separator = renderer.separator.length > 0 ? count(renderer.separator) : 0;
  const blockCost = (fragment: ContextFragment) => count(renderer.block(fragment)) + separator;
  const costOf = (fragments: readonly ContextFragment[]) =>
    fragments.reduce((sum, fragment) => sum + blockCost(fragment), frame);

  const chosen: ContextFragment[] = [];
  let packed: ContextFragment[] = [];
  let reduced = 0;
  const spentBy = new Map<string, number>();

  /** Adds the candidate at the richest of `depths` that fits both the limit and `share`. */
  const tryAdd = (
    candidate: ContextFragment,
    share: number,
    depths: readonly DetailDepth[],
  ): boolean => {
    for (const depth of depths) {
      const reducedForm = depth === "full" ? candidate : reduceDetail(candidate, depth);
      if (!reducedForm) continue;
      const variant =
        depth === "full" ? candidate : { ...reducedForm, tokens: count(reducedForm.content) };
      const cost = blockCost(variant);
      if ((spentBy.get(candidate.strategy) ?? 0) + cost > share) continue;
      const merged = mergeFragments([...chosen, variant], count);
      if (costOf(merged) > limit) continue;
      chosen.push(variant);
      packed = merged;
      spentBy.set(candidate.strategy, (spentBy.get(candidate.strategy) ?? 0) + cost);
      if (depth !== "full") reduced++;
      return true;
    }
    return false;
  };

  // Hot fragments (pinned files, the open plan's decisions) are offered before the rest.
  const ordered = [...candidates].sort(
    (a, b) => Number(b.tier === "hot") - Number(a.tier === "hot") || compareForOutput(a, b),
  );
  const leftover: ContextFragment[] = [];
  const allocation = options.allocation;
  if (allocation && allocation.size > 1) {
    // Whole fragments only: one that overflows its strategy's share may still fit whole
    // in what the others leave, which beats showing its signature now.
    for (const candidate of ordered) {
      if (!tryAdd(candidate, allocation.get(candidate.strategy) ?? 0, ["full"]))
        leftover.push(candidate);
    }
  } else {
    leftover.push(...ordered);
  }
  let dropped = 0;
  for (const candidate of leftover) {
    if (!tryAdd(candidate, Number.POSITIVE_INFINITY, DEPTHS)) dropped++;
  }

  packed.sort(compareForOutput);
  for (;;) {
    const { output, tokensUsed } = renderCounted(renderer, task, budget, packed, count);
    if (tokensUsed <= limit || packed.length === 0) {
      return { fragments: packed, output, tokensUsed, dropped, reduced };
    }
    // Block counts add up to a little less than the whole in rare cases: drop the last.
    packed = packed.slice(0, -1);
    dropped++;
  }
}

/** Renders with `tokensUsed` equal to the output's own count (a fixed point, found in a step or two). */
function renderCounted(
  renderer: Renderer,
  task: string,
  budget: number,
  fragments: readonly ContextFragment[],
  count: (text: string) => number,
): { output: string; tokensUsed: number } {
  let claimed = 0;
  let output = renderAll(renderer, task, budget, claimed, fragments);
  let actual = count(output);
  for (let step = 0; step < 4 && actual !== claimed; step++) {
    claimed = actual;
    output = renderAll(renderer, task, budget, claimed, fragments);
    actual = count(output);
  }
  return { output, tokensUsed: Math.max(actual, claimed) };
}

function memoize(fn: (text: string) => number): (text: string) => number {
  const cache = new Map<string, number>();
  return (text) => {
    let value = cache.get(text);
    if (value === undefined) {
      value = fn(text);
      cache.set(text, value);
    }
    return value;
  };
}
