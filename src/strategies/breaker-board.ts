import type { BreakerRecord, BreakerState } from "../core/breaker.js";
import { CircuitBreaker } from "./circuit-breaker.js";
import type { BreakerBoard } from "./run-strategies.js";
import type { StrategySettings } from "./strategy-settings.js";

/** Where a project's breakers are kept between processes; none for throwaway runs. */
export interface BreakerPersistence {
  save(record: BreakerRecord): Promise<void>;
}

/**
 * The circuit breakers of one project, one per strategy, created on first use
 * with that strategy's threshold and cool-down, starting from stored records.
 */
export class ProjectBreakers implements BreakerBoard {
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(
    private readonly settingsFor: (name: string) => StrategySettings,
    private readonly stored: ReadonlyMap<string, BreakerRecord> = new Map(),
    private readonly persistence?: BreakerPersistence,
    private readonly now: () => number = Date.now,
  ) {}

  state(strategy: string): BreakerState {
    return this.breaker(strategy).state(this.now());
  }

  async recordSuccess(strategy: string): Promise<void> {
    const breaker = this.breaker(strategy);
    const before = breaker.record();
    breaker.recordSuccess();
    if (before.failures !== 0 || before.openedAt !== null)
      await this.persistence?.save(breaker.record());
  }

  async recordFailure(strategy: string): Promise<void> {
    const breaker = this.breaker(strategy);
    breaker.recordFailure(this.now());
    await this.persistence?.save(breaker.record());
  }

  private breaker(strategy: string): CircuitBreaker {
    let breaker = this.breakers.get(strategy);
    if (!breaker) {
      const settings = this.settingsFor(strategy);
      breaker = new CircuitBreaker(
        strategy,
        settings.circuitBreakerThreshold,
        settings.circuitBreakerCooldownSeconds * 1000,
        this.stored.get(strategy),
      );
      this.breakers.set(strategy, breaker);
    }
    return breaker;
  }
}
