/** Scores candidate texts against a query, more precisely than first-stage retrieval. */
export interface Reranker {
  /** Provider and model, e.g. `cohere:rerank-v3.5`. */
  readonly id: string;
  /** How many of the ranking's best candidates it re-scores per request (default 30). */
  readonly topN?: number;
  /** One relevance score per document, in order; higher is more relevant. */
  rerank(query: string, documents: readonly string[], signal?: AbortSignal): Promise<number[]>;
}
