import { CtxError } from "../core/errors.js";
import type { ContextFragment, DetailDepth } from "../core/fragment.js";
import type { TokenCounter } from "../core/token-counter.js";
import { type CountedPart, countJoined } from "../tokens/joined-count.js";
import { isPieceBoundary } from "../tokens/piece-boundaries.js";
import { focusTerms, reduceDetail } from "./detail-depth.js";
import { AROUND_FRAGMENTS, inOrderWithLinesAround } from "./lines-around.js";
import { compareForOutput, mergeFragments, mergeKey } from "./merge-fragments.js";
import { type Renderer, renderAll } from "./renderers.js";
import { worthItsTokens } from "./worth-its-tokens.js";

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
  /**
   * The lines around a chosen fragment, offered once the answer is chosen:
   * what was chosen is packed again by score alone with the lines around its
   * best `AROUND_FRAGMENTS` fragments, which take the place of the weakest.
   * Their `tokens` are not read: they are counted as they are packed.
   */
  readonly around?: (
    fragment: ContextFragment,
    shown: (line: number) => boolean,
  ) => readonly ContextFragment[];
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
  /**
   * The depth each candidate that made it in is shown at, by candidate id (one
   * merged with a neighbour of its file counts as in); a candidate not here was
   * left out for lack of budget.
   */
  readonly placed: ReadonlyMap<string, DetailDepth>;
}

const DEPTHS: readonly DetailDepth[] = ["full", "signature", "outline"];
/**
 * Tokens a fragment's text may lose inside its block: BPE can merge a token or
 * two where the header ends and the text begins, or where the text ends.
 */
const SEAM_TOKENS = 4;

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
  // What a cut-down fragment of loose code keeps: its lines that speak of the task.
  const focus = focusTerms(task);
  const { count, countUpTo, known, remember } = memoizedCounts(options.counter);
  const joined = (parts: readonly CountedPart[]) => countJoined(options.counter, parts);
  /** A block's count, from its fragment text's where the counter adds up (the text is counted once). */
  const countBlock = (block: string, content: string, room: number): number => {
    const counted = known(block);
    if (counted !== undefined) return counted;
    const at = content.length > 0 ? block.lastIndexOf(content) : -1;
    if (!options.counter.additiveAtPieceBoundaries || at < 0) return countUpTo(block, room);
    const tokens = countUpTo(content, room);
    if (tokens > room) return countUpTo(block, room);
    const value = joined([
      { text: block.slice(0, at) },
      { text: content, tokens },
      { text: block.slice(at + content.length) },
    ]);
    remember(block, value);
    return value;
  };
  const emptyCost = count(renderAll(renderer, task, budget, budget, []));
  if (emptyCost > limit) throw new BudgetTooSmallError(budget, emptyCost);

  const frame = count(renderer.prefix(task, budget, budget)) + count(renderer.suffix(1));
  const separator = renderer.separator.length > 0 ? count(renderer.separator) : 0;
  // A group is costed again whenever a fragment joins it: its unchanged fragments are not rendered again.
  const blockCosts = new WeakMap<ContextFragment, number>();
  const blockCost = (fragment: ContextFragment) => {
    let cost = blockCosts.get(fragment);
    if (cost === undefined) {
      cost =
        countBlock(renderer.block(fragment), fragment.content, Number.POSITIVE_INFINITY) +
        separator;
      blockCosts.set(fragment, cost);
    }
    return cost;
  };

  // Chosen fragments by what they may merge with (their file), each group merged and costed
  // on its own: a new fragment changes its group only.
  const groups = new Map<string, PackedGroup>();
  let packedCost = frame;
  let reduced = 0;
  const spentBy = new Map<string, number>();
  const placed = new Map<string, Placed>();
  // Every candidate added, in order (two candidates may share an id: a pinned file a search found too).
  const picks: Placed[] = [];

  /**
   * Adds the candidate at the richest of `depths` that fits both the limit and
   * `share`; `as`: the candidate and depth it stands for when it is one chosen
   * before (null: an offer that stands for none).
   */
  const tryAdd = (
    candidate: ContextFragment,
    share: number,
    depths: readonly DetailDepth[],
    as?: Omit<Placed, "variant"> | null,
  ): boolean => {
    const spent = spentBy.get(candidate.strategy) ?? 0;
    // A lower depth keeps the fragment's file, so its group and room are the same at every depth.
    const key = mergeKey(candidate);
    const group = groups.get(key);
    // Alone in its group, the output grows by its block: the room is the budget's too.
    const room = group ? share - spent : Math.min(share - spent, limit - packedCost);
    if (room <= 0) return false;
    for (const depth of depths) {
      const reducedForm = depth === "full" ? candidate : reduceDetail(candidate, depth, focus);
      if (!reducedForm) continue;
      // Counts stop past the room: what is over it cannot fit, and a block holds its fragment's text.
      const tokens =
        depth === "full" ? candidate.tokens : countUpTo(reducedForm.content, room + SEAM_TOKENS);
      if (tokens - SEAM_TOKENS > room) continue;
      if (!worthItsTokens(reducedForm.content, tokens)) continue;
      const variant = depth === "full" ? candidate : { ...reducedForm, tokens };
      const cost = countBlock(renderer.block(variant), variant.content, room) + separator;
      if (spent + cost > share) continue;
      const chosen = group ? [...group.chosen, variant] : [variant];
      const merged = group ? mergeFragments(chosen, count) : chosen;
      const groupCost = group
        ? merged.reduce((sum, fragment) => sum + blockCost(fragment), 0)
        : cost;
      const total = packedCost - (group?.cost ?? 0) + groupCost;
      if (total > limit) continue;
      groups.set(key, { chosen, merged, cost: groupCost });
      packedCost = total;
      spentBy.set(candidate.strategy, spent + cost);
      if (as === null) return true;
      const stood = as ?? { depth, candidate };
      if (stood.depth !== "full") reduced++;
      const pick = { ...stood, variant };
      placed.set(stood.candidate.id, pick);
      picks.push(pick);
      return true;
    }
    return false;
  };

  // Hot fragments (pinned files, the open plan's decisions) are offered before the rest,
  // spare ones (see ContextFragment.spare) after all others.
  const ordered = [...candidates].sort(
    (a, b) =>
      Number(b.tier === "hot") - Number(a.tier === "hot") ||
      Number(a.spare === true) - Number(b.spare === true) ||
      compareForOutput(a, b),
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

  const chosen = [...picks];
  const offers = options.around ? offersAround(chosen, options.around) : [];
  if (offers.length > 0) {
    groups.clear();
    spentBy.clear();
    placed.clear();
    picks.length = 0;
    packedCost = frame;
    reduced = 0;
    const again = inOrderWithLinesAround<{ fragment: ContextFragment; stood: Placed | null }>(
      chosen.map((stood) => ({ fragment: stood.variant, stood })),
      offers.map((fragment) => ({ fragment, stood: null })),
    );
    for (const { fragment, stood } of again) {
      if (stood) {
        if (!tryAdd(fragment, Number.POSITIVE_INFINITY, ["full"], stood)) dropped++;
        continue;
      }
      // Lines around are counted here, only as far as the room: most of them do not fit.
      const room = limit - packedCost;
      if (room <= 0) continue;
      const tokens = countUpTo(fragment.content, room + SEAM_TOKENS);
      if (tokens - SEAM_TOKENS > room) continue;
      tryAdd({ ...fragment, tokens }, Number.POSITIVE_INFINITY, ["full"], null);
    }
  }

  let packed = [...groups.values()].flatMap((group) => group.merged).sort(compareForOutput);
  for (;;) {
    const { output, tokensUsed } = renderCounted(renderer, task, budget, packed, {
      joined,
      known,
      count,
      additive: options.counter.additiveAtPieceBoundaries === true,
    });
    if (tokensUsed <= limit || packed.length === 0) {
      const depths = new Map([...placed].map(([id, { depth }]) => [id, depth]));
      return { fragments: packed, output, tokensUsed, dropped, reduced, placed: depths };
    }
    // Block counts add up to a little less than the whole in rare cases: drop the last.
    const last = packed.at(-1) as ContextFragment;
    for (const [id, { candidate }] of placed) if (covers(last, candidate)) placed.delete(id);
    packed = packed.slice(0, -1);
    dropped++;
  }
}

/**
 * The lines around the best `AROUND_FRAGMENTS` of what was chosen, each
 * stopping at the lines of its file already chosen.
 */
function offersAround(
  chosen: readonly Placed[],
  around: NonNullable<PackOptions["around"]>,
): ContextFragment[] {
  const shownLines = new Map<string, Set<number>>();
  for (const { variant } of chosen) {
    if (variant.source.kind !== "file") continue;
    const lines = shownLines.get(mergeKey(variant)) ?? new Set<number>();
    for (let line = variant.source.startLine; line <= variant.source.endLine; line++)
      lines.add(line);
    shownLines.set(mergeKey(variant), lines);
  }
  return chosen
    .map(({ variant }) => variant)
    .filter((variant) => variant.tier !== "hot")
    .sort(compareForOutput)
    .slice(0, AROUND_FRAGMENTS)
    .flatMap((variant) =>
      around(variant, (line) => shownLines.get(mergeKey(variant))?.has(line) === true),
    );
}

/** A candidate that made it in: at what depth, and as what variant. */
interface Placed {
  readonly depth: DetailDepth;
  readonly candidate: ContextFragment;
  readonly variant: ContextFragment;
}

interface PackedGroup {
  /** As offered, in the order they were. */
  readonly chosen: readonly ContextFragment[];
  /** As shown: overlapping or touching ranges merged. */
  readonly merged: readonly ContextFragment[];
  /** Tokens of the merged blocks, separators included. */
  readonly cost: number;
}

/** Whether a shown fragment (perhaps merged from several) holds the candidate. */
function covers(shown: ContextFragment, candidate: ContextFragment): boolean {
  if (mergeKey(shown) !== mergeKey(candidate)) return false;
  const [outer, inner] = [shown.source, candidate.source];
  if (outer.kind !== "file" || inner.kind !== "file") return shown.id === candidate.id;
  return inner.startLine >= outer.startLine && inner.endLine <= outer.endLine;
}

/**
 * Renders with `tokensUsed` equal to the output's own count (a fixed point,
 * found in a step or two). Blocks counted while packing are not counted again.
 */
function renderCounted(
  renderer: Renderer,
  task: string,
  budget: number,
  fragments: readonly ContextFragment[],
  counts: {
    readonly joined: (parts: readonly CountedPart[]) => number;
    readonly known: (text: string) => number | undefined;
    readonly count: (text: string) => number;
    /** Counts add up where o200k's pieces break (see countJoined). */
    readonly additive: boolean;
  },
): { output: string; tokensUsed: number } {
  const { joined, known, count } = counts;
  const body: CountedPart[] = [];
  fragments.forEach((fragment, index) => {
    if (index > 0 && renderer.separator.length > 0) body.push({ text: renderer.separator });
    const text = renderer.block(fragment);
    const tokens = known(text);
    body.push(tokens === undefined ? { text } : { text, tokens });
  });
  body.push({ text: renderer.suffix(fragments.length) });
  const rest = body.map((part) => part.text).join("");
  // Only the prefix changes from one step to the next: where pieces break after it
  // (it ends a line, the body's first line starts a piece), the body is counted once.
  const apart = counts.additive && isPieceBoundary(rest, 0);
  let bodyTokens: number | undefined;
  const countWith = (claimed: number) => {
    const prefix = renderer.prefix(task, budget, claimed);
    if (!apart || !prefix.endsWith("\n")) return joined([{ text: prefix }, ...body]);
    bodyTokens ??= joined(body);
    return count(prefix) + bodyTokens;
  };
  let claimed = 0;
  let actual = countWith(claimed);
  for (let step = 0; step < 4 && actual !== claimed; step++) {
    claimed = actual;
    actual = countWith(claimed);
  }
  return {
    output: renderer.prefix(task, budget, claimed) + rest,
    tokensUsed: Math.max(actual, claimed),
  };
}

/** The counter's counts, each text counted (exactly) once. */
function memoizedCounts(counter: TokenCounter): {
  count: (text: string) => number;
  /** The exact count when at most `limit`, else some number above it. */
  countUpTo: (text: string, limit: number) => number;
  /** The exact count of a text counted before; undefined when none was. */
  known: (text: string) => number | undefined;
  remember: (text: string, tokens: number) => void;
} {
  const exact = new Map<string, number>();
  const count = (text: string) => {
    let value = exact.get(text);
    if (value === undefined) {
      value = counter.count(text);
      exact.set(text, value);
    }
    return value;
  };
  const countUpTo = (text: string, limit: number) => {
    const known = exact.get(text);
    if (known !== undefined) return known;
    if (!counter.countUpTo) return count(text);
    const value = counter.countUpTo(text, limit);
    if (value <= limit) exact.set(text, value);
    return value;
  };
  return {
    count,
    countUpTo,
    known: (text) => exact.get(text),
    remember: (text, tokens) => exact.set(text, tokens),
  };
}
