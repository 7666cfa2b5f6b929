import { fragmentsWithin } from "../../assemble/chunk-fragments.js";
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
import type { ArceSettings } from "./arce-settings.js";

interface Candidate {
  readonly chunk: StoredChunk;
  keyword: number;
  semantic: number;
  keywordRank: number | null;
  semanticRank: number | null;
  score: number;
}

/** Hits whose neighbours the second pass adds, and the share of their score the neighbours get. */
const EXPAND_FROM = 5;
const NEIGHBOUR_DECAY = 0.5;

/**
 * All signals fused: BM25 and vector candidates combined by weighted scores
 * (keyword score over the best, similarity scaled across the semantic
 * candidates, the semantic weight defaulting to the embedder's measured quality)
 * or by reciprocal-rank fusion; the top re-scored by a reranker when one is
 * configured; and, when budget is left, a second pass that adds the best hits'
 * enclosing and neighbouring chunks.
 */
export class ArceStrategy implements ContextStrategy {
  readonly name = "arce";
  readonly capabilities: StrategyCapabilities = {
    ...DEFAULT_CAPABILITIES,
    usesText: true,
    usesVector: true,
    resourceTypes: ["folder", "git"],
    qualityScore: 0.95,
  };

  constructor(
    private readonly counter: TokenCounter,
    private readonly settings: ArceSettings,
  ) {}

  canHandle(request: ContextRequest, backends: Backends): number {
    if (!backends.text) return 0;
    return queryTerms(request.task).length > 0 ? 0.8 : 0.4;
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
    const limit = Math.max(
      request.maxFragments ?? this.settings.candidates,
      this.settings.candidates,
    );
    const paths = request.paths ? { pathPrefixes: request.paths } : {};
    const candidates = new Map<number, Candidate>();
    const keywordHits = await text.searchText({ terms: queryTerms(request.task), limit, ...paths });
    const bestKeyword = Math.max(1e-9, ...keywordHits.map((hit) => hit.score));
    keywordHits.forEach((hit, rank) => {
      candidates.set(hit.chunk.id, {
        chunk: hit.chunk,
        keyword: hit.score / bestKeyword,
        semantic: 0,
        keywordRank: rank,
        semanticRank: null,
        score: 0,
      });
    });
    const vector = backends.vector;
    const semanticWeight = this.settings.semanticWeight ?? vector?.quality ?? 0;
    // A signal with no weight is not worth a query embedding.
    if (vector && semanticWeight > 0) {
      const query = await vector.embedQuery(request.task, signal);
      const hits = await vector.searchVectors(query, limit, request.paths);
      const top = hits[0]?.similarity ?? 0;
      const bottom = hits[hits.length - 1]?.similarity ?? 0;
      hits.forEach((hit, rank) => {
        const scaled = top > bottom ? (hit.similarity - bottom) / (top - bottom) : 1;
        const seen = candidates.get(hit.chunk.id);
        if (seen) {
          seen.semantic = scaled;
          seen.semanticRank = rank;
        } else {
          candidates.set(hit.chunk.id, {
            chunk: hit.chunk,
            keyword: 0,
            semantic: scaled,
            keywordRank: null,
            semanticRank: rank,
            score: 0,
          });
        }
      });
    }
    signal?.throwIfAborted();
    const ranked = [...candidates.values()];
    for (const candidate of ranked) candidate.score = this.fuse(candidate, semanticWeight);
    ranked.sort((a, b) => b.score - a.score || a.chunk.id - b.chunk.id);
    const ordered = await this.rerank(ranked.slice(0, limit), request, backends, signal);
    const fragments = fragmentsWithin(
      ordered.map((candidate) => ({ chunk: candidate.chunk, score: candidate.score })),
      budget.total,
      this.name,
      this.counter,
    );
    const used = fragments.reduce((sum, fragment) => sum + fragment.tokens, 0);
    if (!this.settings.expand || used >= budget.allocated * 0.8 || ordered.length === 0)
      return fragments;
    return [...fragments, ...(await this.neighbours(ordered, text, budget.total - used))];
  }

  explain(): string {
    return (
      `arce: keyword (BM25) and semantic (vector) candidates fused by ${this.settings.fusion === "rrf" ? `reciprocal-rank fusion (k=${this.settings.rrfK})` : "weighted scores"}, ` +
      `keyword weight ${this.settings.keywordWeight}, semantic weight ${this.settings.semanticWeight ?? "= the embedder's quality"}; ` +
      `the top ${this.settings.rerankTop} re-scored by a reranker when one is configured; ` +
      `${this.settings.expand ? "with budget left, the best hits' enclosing and neighbouring chunks are added" : "no expansion"}.`
    );
  }

  private fuse(candidate: Candidate, semanticWeight: number): number {
    const { keywordWeight, rrfK } = this.settings;
    if (this.settings.fusion === "rrf") {
      const keyword =
        candidate.keywordRank === null ? 0 : keywordWeight / (rrfK + candidate.keywordRank + 1);
      const semantic =
        candidate.semanticRank === null ? 0 : semanticWeight / (rrfK + candidate.semanticRank + 1);
      return keyword + semantic;
    }
    return keywordWeight * candidate.keyword + semanticWeight * candidate.semantic;
  }

  /** The top candidates in the reranker's order (scored above the rest); unchanged without one or on failure. */
  private async rerank(
    ranked: Candidate[],
    request: ContextRequest,
    backends: Backends,
    signal?: AbortSignal,
  ): Promise<Candidate[]> {
    const reranker = backends.reranker;
    if (!reranker || ranked.length === 0) return ranked;
    const top = ranked.slice(0, this.settings.rerankTop);
    let scores: number[];
    try {
      scores = await reranker.rerank(
        request.task,
        top.map((candidate) => embedded(candidate.chunk)),
        signal,
      );
    } catch {
      // A reranker outage must not cost the answer: keep the fused order.
      return ranked;
    }
    const finite = scores.filter((score) => Number.isFinite(score));
    const low = Math.min(...finite);
    const high = Math.max(...finite);
    const base = Math.max(...ranked.slice(top.length).map((candidate) => candidate.score), 0);
    top.forEach((candidate, index) => {
      const score = scores[index] ?? Number.NEGATIVE_INFINITY;
      const scaled = Number.isFinite(score) ? (high > low ? (score - low) / (high - low) : 1) : 0;
      candidate.score = base + 1 + scaled;
    });
    return [
      ...top.sort((a, b) => b.score - a.score || a.chunk.id - b.chunk.id),
      ...ranked.slice(top.length),
    ];
  }

  /** The enclosing chunk and the chunks just before and after each of the best hits. */
  private async neighbours(
    ordered: Candidate[],
    text: NonNullable<Backends["text"]>,
    room: number,
  ): Promise<ContextFragment[]> {
    const taken = new Set(ordered.map((candidate) => candidate.chunk.id));
    const extra: { chunk: StoredChunk; score: number }[] = [];
    for (const candidate of ordered.slice(0, EXPAND_FROM)) {
      const siblings = await text.getDocumentChunks(
        candidate.chunk.resourceId,
        candidate.chunk.path,
      );
      const at = siblings.findIndex((chunk) => chunk.id === candidate.chunk.id);
      const around = [
        siblings[at - 1],
        siblings[at + 1],
        siblings.find((chunk) => chunk.id === candidate.chunk.parentId),
      ];
      for (const chunk of around) {
        if (!chunk || taken.has(chunk.id)) continue;
        taken.add(chunk.id);
        extra.push({ chunk, score: candidate.score * NEIGHBOUR_DECAY });
      }
    }
    return fragmentsWithin(extra, room, this.name, this.counter);
  }
}

function embedded(chunk: StoredChunk): string {
  return chunk.context ? `${chunk.context}\n\n${chunk.content}` : chunk.content;
}
