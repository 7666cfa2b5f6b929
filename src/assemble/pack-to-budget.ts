import { CtxError } from "../core/errors.js";
import type { ContextFragment } from "../core/fragment.js";
import type { TokenCounter } from "../core/token-counter.js";
import { compareForOutput, mergeFragments } from "./merge-fragments.js";
import { type Renderer, renderAll } from "./renderers.js";
import { trimFragment } from "./trim-fragment.js";

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
}

export interface PackResult {
  readonly fragments: ContextFragment[];
  readonly output: string;
  /** Tokens of `output` by the counter. */
  readonly tokensUsed: number;
  /** Candidates left out for lack of budget. */
  readonly dropped: number;
  /** Candidates shown cut short. */
  readonly trimmed: number;
}

/** Below this many spare tokens, a candidate that does not fit is not cut down. */
const MIN_TRIM_ALLOWANCE = 40;

/**
 * Packs candidates, best first, into a rendering that never exceeds the limit:
 * adjacent or overlapping ranges of one file are merged (saving their headers),
 * a candidate that does not fit whole is cut to the lines that do, and the final
 * output is counted exactly, dropping the lowest fragments if it still runs over.
 */
export function packToBudget(
  candidates: readonly ContextFragment[],
  options: PackOptions,
): PackResult {
  const { renderer, limit, task, budget } = options;
  const count = memoize((text: string) => options.counter.count(text));
  const emptyOutput = renderAll(renderer, task, budget, budget, []);
  const emptyCost = count(emptyOutput);
  if (emptyCost > limit) throw new BudgetTooSmallError(budget, emptyCost);

  const frame = count(renderer.prefix(task, budget, budget)) + count(renderer.suffix(1));
  const separator = renderer.separator.length > 0 ? count(renderer.separator) : 0;
  const blockCost = (fragment: ContextFragment) => count(renderer.block(fragment)) + separator;
  const costOf = (fragments: readonly ContextFragment[]) =>
    fragments.reduce((sum, fragment) => sum + blockCost(fragment), frame);

  const ordered = [...candidates].sort(compareForOutput);
  const chosen: ContextFragment[] = [];
  let packed: ContextFragment[] = [];
  let dropped = 0;
  let trimmed = 0;
  for (const candidate of ordered) {
    const withCandidate = mergeFragments([...chosen, candidate], count);
    if (costOf(withCandidate) <= limit) {
      chosen.push(candidate);
      packed = withCandidate;
      continue;
    }
    const spare = limit - costOf(packed);
    const touchesChosen = withCandidate.length <= packed.length;
    const cut =
      spare >= MIN_TRIM_ALLOWANCE && !touchesChosen
        ? trimFragment(candidate, spare, blockCost, count)
        : null;
    if (cut) {
      chosen.push(cut);
      packed = mergeFragments(chosen, count);
      trimmed++;
    } else {
      dropped++;
    }
  }

  packed.sort(compareForOutput);
  for (;;) {
    const { output, tokensUsed } = renderCounted(renderer, task, budget, packed, count);
    if (tokensUsed <= limit || packed.length === 0) {
      return { fragments: packed, output, tokensUsed, dropped, trimmed };
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
