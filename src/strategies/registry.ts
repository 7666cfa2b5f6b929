import { CtxError } from "../core/errors.js";
import type { ContextStrategy } from "../core/strategy.js";
import { FUSED_PIPELINE } from "./fused-pipeline.js";

/** A strategy cannot be registered or an enabled one is missing. */
export class StrategyRegistryError extends CtxError {
  constructor(message: string) {
    super("strategy_registry", message);
  }
}

export interface RegisteredStrategy {
  readonly strategy: ContextStrategy;
  /** "built-in", or the config file (or "api") that added it. */
  readonly origin: string;
}

/**
 * The strategies a project can use, by name. Registering checks the seed's
 * rules: a strategy declares at least one backend it uses and the resource
 * types it supports; `assertEnabled` checks the third, that every enabled
 * strategy is registered.
 */
export class StrategyRegistry {
  private readonly entries = new Map<string, RegisteredStrategy>();

  register(strategy: ContextStrategy, origin = "api"): void {
    assertStrategyShape(strategy, origin);
    const { name, capabilities } = strategy;
    if (name === FUSED_PIPELINE) {
      throw new StrategyRegistryError(
        `strategy "${name}" (${origin}): the name is the default pipeline's (every built-in signal in one ranking); give it another name`,
      );
    }
    const existing = this.entries.get(name);
    if (existing) {
      throw new StrategyRegistryError(
        `strategy "${name}" (${origin}) is already registered by ${existing.origin}; give it another name`,
      );
    }
    if (
      !capabilities.usesText &&
      !capabilities.usesVector &&
      !capabilities.usesGraph &&
      !capabilities.usesTemporal &&
      !capabilities.supportsPlanHierarchy
    ) {
      throw new StrategyRegistryError(
        `strategy "${name}" (${origin}) declares no backend: set at least one of usesText, usesVector, usesGraph, usesTemporal, supportsPlanHierarchy`,
      );
    }
    if (capabilities.resourceTypes.length === 0) {
      throw new StrategyRegistryError(
        `strategy "${name}" (${origin}) declares no resource types: list the ones it supports, e.g. ["folder", "git"]`,
      );
    }
    this.entries.set(name, { strategy, origin });
  }

  get(name: string): ContextStrategy | undefined {
    return this.entries.get(name)?.strategy;
  }

  /** All registered strategies, by name. */
  list(): RegisteredStrategy[] {
    return [...this.entries.values()].sort((a, b) => (a.strategy.name < b.strategy.name ? -1 : 1));
  }

  /** Throws, naming where the list came from, when an enabled strategy is not registered. */
  assertEnabled(enabled: readonly string[], source: string): void {
    const missing = enabled.filter((name) => name !== FUSED_PIPELINE && !this.entries.has(name));
    if (missing.length === 0) return;
    const known = [...this.entries.keys(), FUSED_PIPELINE].sort().join(", ");
    throw new StrategyRegistryError(
      `${source}: enabled strategy ${missing.map((name) => `"${name}"`).join(", ")} is not registered; registered: ${known} (add custom ones under [context.strategies.custom])`,
    );
  }
}

/** Anything loaded from a user's module is checked before it is trusted. */
function assertStrategyShape(
  candidate: unknown,
  origin: string,
): asserts candidate is ContextStrategy {
  const strategy = candidate as Partial<ContextStrategy> | null;
  const problems: string[] = [];
  if (typeof strategy !== "object" || strategy === null) {
    throw new StrategyRegistryError(
      `${origin}: a strategy must be an object, got ${typeof candidate}`,
    );
  }
  if (typeof strategy.name !== "string" || strategy.name.length === 0)
    problems.push("a non-empty `name`");
  for (const method of ["canHandle", "assemble", "explain"] as const) {
    if (typeof strategy[method] !== "function") problems.push(`a \`${method}\` method`);
  }
  const capabilities = strategy.capabilities;
  if (typeof capabilities !== "object" || capabilities === null) {
    problems.push("a `capabilities` object");
  } else {
    if (!Array.isArray(capabilities.resourceTypes))
      problems.push("`capabilities.resourceTypes` (an array)");
    if (
      typeof capabilities.qualityScore !== "number" ||
      capabilities.qualityScore < 0 ||
      capabilities.qualityScore > 1
    ) {
      problems.push("`capabilities.qualityScore` between 0 and 1");
    }
  }
  if (problems.length > 0) {
    const label = typeof strategy.name === "string" ? `strategy "${strategy.name}"` : "strategy";
    throw new StrategyRegistryError(`${label} (${origin}) needs ${problems.join(", ")}`);
  }
}
