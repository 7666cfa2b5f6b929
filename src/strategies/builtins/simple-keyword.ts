import { reduceDetail } from "../../assemble/detail-depth.js";
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
import type { StoredChunk } from "../../core/types.js";
import { queryTerms } from "../../text/code-tokenizer.js";

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
    const hits = await text.searchText({
      terms: queryTerms(request.task),
      limit: request.maxFragments ?? DEFAULT_MAX_FRAGMENTS,
      ...(request.paths ? { pathPrefixes: request.paths } : {}),
    });
    signal?.throwIfAborted();
    // Candidates past this strategy's share are spares for budget others leave unused.
    const fragments: ContextFragment[] = [];
    let used = 0;
    for (const hit of hits) {
      const fragment = this.fitting(
        chunkFragment(hit.chunk, hit.score, this.name, this.counter),
        budget.total - used,
      );
      if (!fragment) continue;
      used += fragment.tokens;
      fragments.push(fragment);
    }
    return fragments;
  }

  /** The fragment, or its signature or outline when only that fits in `room` tokens. */
  private fitting(fragment: ContextFragment, room: number): ContextFragment | null {
    if (fragment.tokens <= room) return fragment;
    for (const depth of ["signature", "outline"] as const) {
      const reduced = reduceDetail(fragment, depth);
      if (!reduced) continue;
      const tokens = this.counter.count(reduced.content);
      if (tokens <= room) return { ...reduced, tokens };
    }
    return null;
  }

  explain(): string {
    return (
      "simple-keyword: BM25 over chunk text, generated context, defined symbols and path " +
      "(FTS5, Porter-stemmed), with identifiers kept whole and split into camelCase, " +
      "snake_case and kebab-case parts; English function words are dropped from the query."
    );
  }
}

/** A stored chunk as a fragment of the working tree. */
export function chunkFragment(
  chunk: StoredChunk,
  score: number,
  strategy: string,
  counter: TokenCounter,
): ContextFragment {
  return {
    id: `${chunk.resourceId}:${chunk.path}#L${chunk.startLine}-L${chunk.endLine}`,
    source: {
      kind: "file",
      resourceId: chunk.resourceId,
      path: chunk.path,
      startLine: chunk.startLine,
      endLine: chunk.endLine,
      language: chunk.language,
    },
    content: chunk.content,
    tokens: counter.count(chunk.content),
    score,
    strategy,
    tier: "warm",
    nodeId: `${chunk.resourceId}:${chunk.path}#${String(chunk.startLine).padStart(8, "0")}`,
    detailDepth: "full",
    symbol: chunk.symbol,
    chunkKind: chunk.kind,
    chunkIds: [chunk.id],
    ...(chunk.context ? { context: chunk.context } : {}),
  };
}
