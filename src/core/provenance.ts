import type { BreakerState } from "./breaker.js";

/** What happened to one enabled strategy in one request: why it ran or not, and what it cost. */
export interface StrategyRun {
  readonly name: string;
  /** "ran", or why it did not: no backend, breaker open, confidence 0, disabled. */
  readonly status: "ran" | "no-backend" | "breaker-open" | "declined" | "disabled";
  /** canHandle's answer, 0..1 (0 when it was not asked). */
  readonly confidence: number;
  readonly quality: number;
  /** True when it ran only as the fallback chain's pick. */
  readonly fallback: boolean;
  /** Tokens of the budget allotted to it. */
  readonly allocated: number;
  /** Tokens of the fragments it returned (after limits). */
  readonly used: number;
  readonly fragments: number;
  /** Fragments it found before the max_fragments and budget limits. */
  readonly totalFragments: number;
  readonly executionTimeMs: number;
  readonly errors: readonly string[];
  /** Breaker state after the run. */
  readonly breaker: BreakerState;
}
