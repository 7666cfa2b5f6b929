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
import { DEFAULT_MAX_FRAGMENTS } from "./simple-keyword.js";

/**
 * Nearest chunks by cosine similarity of their embedded text (context +
 * content) to the embedded task. Its confidence is the embedder's measured
 * quality, so a weak embedder gets a small share of the budget.
 */
export class SemanticEmbeddingStrategy implements ContextStrategy {
  readonly name = "semantic-embedding";
  readonly capabilities: StrategyCapabilities = {
    ...DEFAULT_CAPABILITIES,
    usesVector: true,
    resourceTypes: ["folder", "git"],
    qualityScore: 0.6,
  };

  constructor(private readonly counter: TokenCounter) {}

  canHandle(_request: ContextRequest, backends: Backends): number {
    return backends.vector ? Math.max(0, Math.min(1, backends.vector.quality)) : 0;
  }

  async assemble(
    request: ContextRequest,
    backends: Backends,
    budget: TokenBudget,
    _plan?: unknown,
    signal?: AbortSignal,
  ): Promise<ContextFragment[]> {
    const vector = backends.vector;
    if (!vector) return [];
    const query = await vector.embedQuery(request.task, signal);
    const hits = await vector.searchVectors(
      query,
      request.maxFragments ?? DEFAULT_MAX_FRAGMENTS,
      request.paths,
    );
    signal?.throwIfAborted();
    return fragmentsWithin(
      hits.map((hit) => ({
        chunk: hit.chunk,
        score: hit.similarity,
        signals: { vector: hit.similarity },
      })),
      budget.total,
      this.name,
      this.counter,
      focusTerms(request.task),
    );
  }

  explain(): string {
    return "semantic-embedding: nearest chunks by cosine similarity between the embedded task and each chunk's embedded context + text (exact search in sqlite-vec; an HNSW index past [embeddings] ann_threshold vectors).";
  }
}
