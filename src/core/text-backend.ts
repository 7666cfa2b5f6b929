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

/** Lines `from` to `to` of a document, 1-based and inclusive. */
export interface LineSpan {
  readonly from: number;
  readonly to: number;
}

/** Full-text search over indexed chunks: what `simple-keyword` needs. */
export interface TextBackend {
  searchText(query: TextQuery): Promise<TextHit[]>;
  /**
   * Chunks of one document in line order (for neighbours of a hit); with
   * `limit`, only its first that many; with `lines`, only those that hold a
   * line of that span (a few lines of a large file, read without the rest).
   */
  getDocumentChunks(
    resourceId: string,
    path: string,
    limit?: number,
    lines?: LineSpan,
  ): Promise<StoredChunk[]>;
}

/** BM25 weight of each indexed field of a chunk. */
export interface FieldWeights {
  readonly path: number;
  readonly symbols: number;
  readonly context: number;
  readonly body: number;
}

export const DEFAULT_FIELD_WEIGHTS: FieldWeights = { path: 1.5, symbols: 2, context: 1, body: 1 };

/** A chunk found by vector similarity. */
export interface VectorHit {
  readonly chunk: StoredChunk;
  /** Cosine similarity, -1..1, higher is closer. */
  readonly similarity: number;
}

/** Nearest-neighbour search over the vectors one embedder wrote. */
export interface VectorBackend {
  /** The embedder whose vectors are searched (queries must be embedded with it). */
  readonly embedderId: string;
  searchVectors(
    vector: Float32Array,
    limit: number,
    pathPrefixes?: readonly string[],
  ): Promise<VectorHit[]>;
  /** Embeds a query with the same embedder. */
  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array>;
  /** How well this embedder retrieves (0..1): semantic strategies' weight. */
  readonly quality: number;
}
