import type { StoredChunk } from "./types.js";

/** A keyword query, already split into index terms by the code-aware tokenizer. */
export interface TextQuery {
  readonly terms: readonly string[];
  readonly limit: number;
  /** Keep only chunks whose path equals or starts with one of these. */
  readonly pathPrefixes?: readonly string[];
}

export interface TextHit {
  readonly chunk: StoredChunk;
  /** BM25 relevance, higher is better. */
  readonly score: number;
}

/** Full-text search over indexed chunks: what `simple-keyword` needs. */
export interface TextBackend {
  searchText(query: TextQuery): Promise<TextHit[]>;
}

/** BM25 weight of each indexed field of a chunk. */
export interface FieldWeights {
  readonly path: number;
  readonly symbols: number;
  readonly context: number;
  readonly body: number;
}

export const DEFAULT_FIELD_WEIGHTS: FieldWeights = { path: 1.5, symbols: 2, context: 1, body: 1 };
