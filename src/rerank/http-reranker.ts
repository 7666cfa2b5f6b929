import { kindForStatus, LlmCallError, retryAfterMs } from "../contextualize/llm/llm-client.js";
import { type RetryPolicy, withRetries } from "../contextualize/llm/retry.js";
import type { Reranker } from "../core/reranker.js";
import { maskSecrets } from "../secrets/mask-secrets.js";

export const RERANK_PROVIDERS = ["cohere", "voyage", "jina", "tei", "openai-compatible"] as const;
export type RerankProvider = (typeof RERANK_PROVIDERS)[number];

export interface HttpRerankerOptions {
  readonly provider: RerankProvider;
  /** Full URL of the rerank endpoint. */
  readonly url: string;
  readonly model: string;
  readonly apiKey: string | null;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  /** Candidates re-scored per request (default 30). */
  readonly topN?: number;
}

/** Where each provider's rerank endpoint lives when no base URL is given. */
export const DEFAULT_RERANK_URLS: Readonly<Partial<Record<RerankProvider, string>>> = {
  cohere: "https://api.cohere.com/v2/rerank",
  voyage: "https://api.voyageai.com/v1/rerank",
  jina: "https://api.jina.ai/v1/rerank",
};

/**
 * Rerank APIs in the Cohere / Jina / vLLM shape (`{model, query, documents}` →
 * `results[].relevance_score`), Voyage's (`data[]`) and Hugging Face TEI's
 * (`{query, texts}` → `[{index, score}]`). Secrets are masked before sending.
 */
export class HttpReranker implements Reranker {
  readonly id: string;
  readonly topN: number;

  constructor(private readonly options: HttpRerankerOptions) {
    this.id = `${options.provider}:${options.model}`;
    this.topN = options.topN ?? 30;
  }

  async rerank(
    query: string,
    documents: readonly string[],
    signal?: AbortSignal,
  ): Promise<number[]> {
    if (documents.length === 0) return [];
    const texts = await Promise.all(
      documents.map(async (document) => (await maskSecrets(document)).text),
    );
    const body =
      this.options.provider === "tei"
        ? { query, texts, raw_scores: false }
        : this.options.provider === "voyage"
          ? { model: this.options.model, query, documents: texts }
          : { model: this.options.model, query, documents: texts, top_n: texts.length };
    const answer = await withRetries(() => this.post(body, signal), this.options.retry, signal);
    return scoresFrom(answer, documents.length, this.id);
  }

  private async post(body: unknown, signal?: AbortSignal): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    let response: Response;
    try {
      response = await fetch(this.options.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      const kind = timeout.aborted ? "timeout" : signal?.aborted ? "aborted" : "network";
      throw new LlmCallError(kind, `${this.id}: ${(error as Error).message}`, null, {
        cause: error,
      });
    }
    if (!response.ok) {
      const detail = (await response.text()).slice(0, 200);
      throw new LlmCallError(
        kindForStatus(response.status),
        `${this.id}: HTTP ${response.status}: ${detail}`,
        retryAfterMs(response.headers),
      );
    }
    try {
      return await response.json();
    } catch {
      throw new LlmCallError("bad-response", `${this.id}: the answer is not JSON`);
    }
  }
}

/** Scores by original index, from any of the supported answer shapes. */
function scoresFrom(answer: unknown, count: number, id: string): number[] {
  const container = answer as { results?: unknown; data?: unknown };
  const items = Array.isArray(answer)
    ? answer
    : Array.isArray(container?.results)
      ? container.results
      : container?.data;
  if (!Array.isArray(items))
    throw new LlmCallError("bad-response", `${id}: no results in the answer`);
  const scores = new Array<number>(count).fill(Number.NEGATIVE_INFINITY);
  for (const item of items as { index?: unknown; relevance_score?: unknown; score?: unknown }[]) {
    const score = typeof item.relevance_score === "number" ? item.relevance_score : item.score;
    if (
      typeof item.index === "number" &&
      item.index >= 0 &&
      item.index < count &&
      typeof score === "number"
    ) {
      scores[item.index] = score;
    }
  }
  return scores;
}
