import type { Backends, ContextRequest, PlanContext } from "../core/strategy.js";
import type { TokenCounter } from "../core/token-counter.js";
import { expandPipelineNames } from "./fused-pipeline.js";
import type { StrategyRegistry } from "./registry.js";
import type { BreakerBoard, PipelineOutput } from "./run-strategies.js";
import { runStrategies } from "./run-strategies.js";
import { Semaphore } from "./semaphore.js";
import type { StrategySettings } from "./strategy-settings.js";

export interface StrategyPipelineOptions {
  readonly registry: StrategyRegistry;
  readonly settingsFor: (name: string) => StrategySettings;
  readonly counter: TokenCounter;
  readonly breakers: BreakerBoard;
}

/**
 * One project's strategy pipeline: the registry, settings and breakers, plus the
 * per-strategy limits on concurrent runs that concurrent requests share.
 */
export class StrategyPipeline {
  private readonly semaphores = new Map<string, Semaphore>();

  constructor(readonly options: StrategyPipelineOptions) {}

  get registry(): StrategyRegistry {
    return this.options.registry;
  }

  get breakers(): BreakerBoard {
    return this.options.breakers;
  }

  run(
    request: ContextRequest,
    backends: Backends,
    enabled: readonly string[],
    extra: { plan?: PlanContext; signal?: AbortSignal } = {},
  ): Promise<PipelineOutput> {
    return runStrategies(request, {
      registry: this.options.registry,
      enabled: expandPipelineNames(enabled),
      settingsFor: this.options.settingsFor,
      backends,
      counter: this.options.counter,
      breakers: this.options.breakers,
      semaphoreFor: (name, maxWorkers) => this.semaphoreFor(name, maxWorkers),
      ...extra,
    });
  }

  private semaphoreFor(name: string, maxWorkers: number): Semaphore {
    let semaphore = this.semaphores.get(name);
    if (!semaphore) {
      semaphore = new Semaphore(maxWorkers);
      this.semaphores.set(name, semaphore);
    }
    return semaphore;
  }
}
