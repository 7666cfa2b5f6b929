/** How big the chunker makes chunks (`[chunking]` in ctx.toml). */
export interface ChunkLimits {
  /** No chunk (header included) has more tokens than this. */
  readonly maxTokens: number;
  /** Adjacent sibling chunks smaller than this are merged while they fit. */
  readonly minTokens: number;
  /** Lines a window repeats from the one before it. */
  readonly overlapLines: number;
  /**
   * Adjacent SQL statements that together have at most this many tokens share
   * a chunk, whatever their own size (a statement is rarely worth a chunk of
   * its own); half of `maxTokens` when not given, 0 to keep every one apart.
   */
  readonly packStatementsUpTo?: number;
}

export const DEFAULT_CHUNK_LIMITS: ChunkLimits = { maxTokens: 800, minTokens: 48, overlapLines: 3 };
