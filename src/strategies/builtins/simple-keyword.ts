import { fragmentsWithin } from "../../assemble/chunk-fragments.js";
import { focusTerms } from "../../assemble/detail-depth.js";
import type { ContextFragment } from "../../core/fragment.js";
import type {
  Backends,
  ContextRequest,
  ContextStrategy,
  StrategyCapabilities,
  TokenBudget,
} from "../../core/strategy.js";
import { DEFAULT_CAPABILITIES } from "../../core/strategy.js";
import type { TokenCounter } from "../../core/token-counter.js";
import { keywordSignals } from "../../rank/keyword-signals.js";
import { queryTerms } from "../../text/code-tokenizer.js";
import { taskSearchTerms } from "../../text/task-terms.js";
import { taskStems } from "../../text/word-stems.js";

/** Fragments returned when the request does not say how many. */
export const DEFAULT_MAX_FRAGMENTS = 100;

/**
 * BM25 over chunk text, generated context, symbols and path, with identifiers
 * split the way code is written. Needs only the full-text backend, so it is the
 * fallback that always runs.
 */
export class SimpleKeywordStrategy implements ContextStrategy {
  readonly name = "simple-keyword";
  readonly capabilities: StrategyCapabilities = {
    ...DEFAULT_CAPABILITIES,
    usesText: true,
    resourceTypes: ["folder", "git"],
    qualityScore: 0.3,
  };

  constructor(private readonly counter: TokenCounter) {}

  canHandle(request: ContextRequest, backends: Backends): number {
    if (!backends.text) return 0;
    return queryTerms(request.task).length > 0 ? 0.5 : 0.1;
  }

  async assemble(
    request: ContextRequest,
    backends: Backends,
    budget: TokenBudget,
    _plan?: unknown,
    signal?: AbortSignal,
  ): Promise<ContextFragment[]> {
    const text = backends.text;
    if (!text) return [];
    const first = request.maxFragments ?? DEFAULT_MAX_FRAGMENTS;
    const spare = request.spareFragments ?? 0;
    const stems = taskStems(request.task);
    const focus = focusTerms(request.task);
    const found = await text.searchText({
      terms: taskSearchTerms(request.task),
      limit: first + spare,
      ...(request.paths ? { pathPrefixes: request.paths } : {}),
    });
    signal?.throwIfAborted();
    // The first hits' signals are read off the first hits alone, as at any budget.
    const hits = found.slice(0, first);
    const signals = keywordSignals(hits, stems);
    // Candidates past this strategy's share are spares for budget others leave unused.
    const fragments = fragmentsWithin(
      hits.map((hit, rank) => ({ chunk: hit.chunk, score: hit.score, signals: signals[rank] })),
      budget.total,
      this.name,
      this.counter,
      focus,
    );
    if (found.length <= first) return fragments;
    // The hits past them fill what they leave of a large budget (ContextFragment.spare).
    const allSignals = keywordSignals(found, stems);
    const used = fragments.reduce((sum, fragment) => sum + fragment.tokens, 0);
    const spares = fragmentsWithin(
      found.slice(first).map((hit, at) => ({
        chunk: hit.chunk,
        score: hit.score,
        signals: allSignals[first + at],
      })),
      budget.total - used,
      this.name,
      this.counter,
      focus,
    );
    return [...fragments, ...spares.map((fragment) => ({ ...fragment, spare: true }))];
  }

  explain(): string {
    return (
      "simple-keyword: BM25 over chunk text, generated context, defined symbols and path " +
      "(FTS5, Porter-stemmed), with identifiers kept whole and split into camelCase, " +
      "snake_case and kebab-case parts; English function words are dropped from the query, " +
      "and the first line of a task of several lines (its title) counts two to four times, " +
      "more the longer the rest."
    );
  }
}
