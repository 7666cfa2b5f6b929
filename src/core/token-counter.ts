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
}
