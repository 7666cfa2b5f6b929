import { StoreError } from "../../core/errors.js";

/**
 * A vector as pgvector's text input, `[x,y,…]`: each number as JavaScript
 * writes it (`1e-7`, `0.10000000149011612` for a float32 0.1), which pgvector
 * reads back to the same float32. pgvector refuses NaN and ±Infinity, and
 * JSON would turn them into `null` that it refuses with a parse error naming
 * nothing: a broken vector from an embedder is named here instead, with where
 * it would have gone.
 */
export function vectorLiteral(vector: ArrayLike<number>, location: string): string {
  const parts = new Array<string>(vector.length);
  for (let i = 0; i < vector.length; i++) {
    const value = vector[i] as number;
    if (!Number.isFinite(value)) {
      throw new StoreError(
        location,
        `a vector holds ${value} at position ${i}: pgvector stores finite numbers only; the embedder returned a broken vector (check it, then run ctx index again)`,
      );
    }
    // -0 is written 0, as JSON does.
    parts[i] = String(value === 0 ? 0 : value);
  }
  return `[${parts.join(",")}]`;
}
