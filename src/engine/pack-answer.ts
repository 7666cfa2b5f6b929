import { type PackOptions, packToBudget } from "../assemble/pack-to-budget.js";
import type { OutputFormat } from "../assemble/renderers.js";
import { rendererFor } from "../assemble/renderers.js";
import { UsageError } from "../core/errors.js";
import { fragmentIdShower } from "../core/fragment-id.js";
import type { TokenCounter } from "../core/token-counter.js";
import type { Resource } from "../core/types.js";
import type { PipelineOutput } from "../strategies/run-strategies.js";
import { contributions } from "./contributions.js";
import type { QueryResult } from "./engine-options.js";
import type { HotTier } from "./hot-files.js";
import { traceCandidates } from "./request-trace.js";

export interface AnswerParts {
  readonly task: string;
  readonly budget: number;
  /** The budget less the safety margin: what the output may count. */
  readonly limit: number;
  readonly format: OutputFormat;
  readonly explain: boolean;
  readonly resources: readonly Resource[];
  readonly hot: HotTier;
  readonly output: PipelineOutput;
  readonly counter: TokenCounter;
  readonly settingsFor: (strategy: string) => { readonly maxFragments: number };
  /** The lines around a chosen fragment, offered once the answer is chosen (see PackOptions). */
  readonly around?: PackOptions["around"];
}

/**
 * A request's answer from what the strategies offered: the hot files first,
 * packed to the budget and rendered, with each strategy's share of the output
 * and what became of every candidate.
 */
export function packAnswer(parts: AnswerParts): Omit<QueryResult, "requestId" | "unknownFocus"> {
  const { candidates, allocation, runs } = parts.output;
  const showId = fragmentIdShower(parts.resources.map((resource) => resource.id));
  const offered = [...parts.hot.fragments, ...candidates].map((candidate) => ({
    ...candidate,
    id: showId(candidate.id),
  }));
  const packed = packToBudget(offered, {
    task: parts.task,
    budget: parts.budget,
    limit: parts.limit,
    renderer: rendererFor(parts.format, { explain: parts.explain, runs }),
    counter: parts.counter,
    allocation: parts.hot.withShare(allocation),
    ...(parts.around ? { around: parts.around } : {}),
  });
  return {
    ...packed,
    task: parts.task,
    budget: parts.budget,
    format: parts.format,
    candidates: candidates.length,
    provenance: contributions(runs, packed.fragments),
    trace: traceCandidates(offered, parts.output, packed, showId, parts.settingsFor),
    createdAt: new Date().toISOString(),
  };
}

/** A request's budget: a positive whole number of tokens. */
export function assertBudget(budget: number): void {
  if (!Number.isInteger(budget) || budget <= 0) {
    throw new UsageError(`budget must be a positive whole number of tokens, got ${budget}`);
  }
}
