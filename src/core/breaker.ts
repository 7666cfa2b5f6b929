/** Closed runs normally; open refuses runs; half-open lets one trial run through. */
export type BreakerState = "closed" | "open" | "half-open";

/** A strategy's circuit breaker as stored for a project. */
export interface BreakerRecord {
  readonly strategy: string;
  /** Consecutive failures so far. */
  readonly failures: number;
  /** When it last opened (ms since the epoch), null while closed. */
  readonly openedAt: number | null;
}
