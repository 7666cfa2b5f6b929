/** Turns texts into vectors for semantic search. */
export interface Embedder {
  /** Provider, model and dimension, e.g. `openai-compatible:text-embedding-3-small:1536`. */
  readonly id: string;
  readonly dimensions: number;
  /** Texts per call. */
  readonly batchSize: number;
  /** Longer texts are cut to this many tokens before embedding. */
  readonly maxInputTokens: number;
  /** True when texts leave the machine: secrets are masked first. */
  readonly remote: boolean;
  /**
   * How well its vectors retrieve code, 0..1, as measured with `ctx eval`: the
   * weight semantic strategies give themselves. Weak models get little say.
   */
  readonly quality: number;
  /** One unit-length vector per text, in order. */
  embed(
    texts: readonly string[],
    options?: { readonly signal?: AbortSignal },
  ): Promise<Float32Array[]>;
}

/** Normalises a vector to unit length in place (cosine similarity becomes a dot product). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / norm;
  return vector;
}
