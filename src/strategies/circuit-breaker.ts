import type { BreakerRecord, BreakerState } from "../core/breaker.js";

/**
 * One strategy's circuit breaker: `threshold` consecutive failures open it; after
 * `cooldownMs` it half-opens and lets a trial run through; a success closes it
 * and a failed trial opens it again.
 */
export class CircuitBreaker {
  private failures: number;
  private openedAt: number | null;

  constructor(
    readonly strategy: string,
    private readonly threshold: number,
    private readonly cooldownMs: number,
    record?: BreakerRecord,
  ) {
    this.failures = record?.failures ?? 0;
    this.openedAt = record?.openedAt ?? null;
  }

  state(now = Date.now()): BreakerState {
    if (this.openedAt === null) return "closed";
    return now - this.openedAt >= this.cooldownMs ? "half-open" : "open";
  }

  /** False while open: the strategy is skipped until the cool-down ends. */
  allows(now = Date.now()): boolean {
    return this.state(now) !== "open";
  }

  recordSuccess(): void {
    this.failures = 0;
    this.openedAt = null;
  }

  recordFailure(now = Date.now()): void {
    this.failures++;
    if (this.openedAt !== null || this.failures >= this.threshold) this.openedAt = now;
  }

  record(): BreakerRecord {
    return { strategy: this.strategy, failures: this.failures, openedAt: this.openedAt };
  }
}
