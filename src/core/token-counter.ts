/** Counts tokens the way the model that reads the context will (or close to it). */
export interface TokenCounter {
  /** Stable name, e.g. `o200k` or `estimate`. */
  readonly name: string;
  count(text: string): number;
  /**
   * The exact count when it is at most `limit`, otherwise any number above
   * `limit`; lets a counter stop early on long text. Defaults to `count`.
   */
  countUpTo?(text: string, limit: number): number;
  /**
   * Whether counts add up across the points where o200k's pieces break
   * (tokens/piece-boundaries.ts): a text's count is then the sum of its parts'
   * counts split there, so a known part need not be counted again.
   */
  readonly additiveAtPieceBoundaries?: boolean;
  /**
   * The words the counter's vocabulary holds as one token (alone or after a
   * space), by the hash of tokens/word-hash.ts: where most of a text's words are
   * not among them (random strings, made-up words) BPE spends two to three times
   * what a fast estimate expects. Counters without a vocabulary leave it out.
   */
  vocabulary?(): WordVocabulary;
}

export interface WordVocabulary {
  hasWord(hash: number): boolean;
}
