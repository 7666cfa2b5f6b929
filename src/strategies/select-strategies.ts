import type { BreakerState } from "../core/breaker.js";
import type {
  Backends,
  ContextRequest,
  ContextStrategy,
  StrategyCapabilities,
} from "../core/strategy.js";
import type { StrategyRegistry } from "./registry.js";

/** The order in which a strategy is picked when none of the enabled ones can run. */
export const FALLBACK_CHAIN: readonly string[] = [
  "breadth-depth-navigator",
  "semantic-embedding",
  "simple-keyword",
];

export interface Selection {
  readonly strategy: ContextStrategy;
  readonly confidence: number;
  readonly fallback: boolean;
}

export interface Skipped {
  readonly name: string;
  readonly reason: "no-backend" | "breaker-open" | "declined" | "disabled";
  readonly confidence: number;
  readonly error?: string;
}

export interface SelectOptions {
  readonly registry: StrategyRegistry;
  readonly enabled: readonly string[];
  readonly isDisabled: (name: string) => boolean;
  readonly breakerState: (name: string) => BreakerState;
  readonly backends: Backends;
}

/** True when every backend the strategy declares is present. */
export function hasBackends(capabilities: StrategyCapabilities, backends: Backends): boolean {
  const available = {
    text: backends.text !== undefined,
    vector: backends.vector !== undefined,
    graph: backends.graph !== undefined,
    temporal: backends.temporal !== undefined,
    plans: backends.plans !== undefined,
  };
  return (
    (!capabilities.usesText || available.text) &&
    (!capabilities.usesVector || available.vector) &&
    (!capabilities.usesGraph || available.graph) &&
    (!capabilities.usesTemporal || available.temporal) &&
    (!capabilities.supportsPlanHierarchy || available.plans)
  );
}

/**
 * Asks every enabled strategy whose backends are present and whose breaker is
 * not open how well it can serve the request, keeps those above 0, and when none
 * is left picks the first runnable strategy of the fallback chain, so some
 * context is always produced.
 */
export function selectStrategies(
  request: ContextRequest,
  options: SelectOptions,
): { selected: Selection[]; skipped: Skipped[] } {
  const selected: Selection[] = [];
  const skipped: Skipped[] = [];
  for (const name of options.enabled) {
    const strategy = options.registry.get(name);
    if (!strategy) continue;
    if (options.isDisabled(name)) {
      skipped.push({ name, reason: "disabled", confidence: 0 });
    } else if (!hasBackends(strategy.capabilities, options.backends)) {
      skipped.push({ name, reason: "no-backend", confidence: 0 });
    } else if (options.breakerState(name) === "open") {
      skipped.push({ name, reason: "breaker-open", confidence: 0 });
    } else {
      const { confidence, error } = askConfidence(strategy, request, options.backends);
      if (confidence > 0) selected.push({ strategy, confidence, fallback: false });
      else skipped.push({ name, reason: "declined", confidence: 0, ...(error ? { error } : {}) });
    }
  }
  if (selected.length > 0) return { selected, skipped };
  for (const name of FALLBACK_CHAIN) {
    const strategy = options.registry.get(name);
    if (!strategy || !hasBackends(strategy.capabilities, options.backends)) continue;
    // The last link (keyword) runs even with an open breaker: something must answer.
    const isLast = name === FALLBACK_CHAIN[FALLBACK_CHAIN.length - 1];
    if (!isLast && options.breakerState(name) === "open") continue;
    const { confidence } = askConfidence(strategy, request, options.backends);
    selected.push({ strategy, confidence: Math.max(confidence, 0.1), fallback: true });
    return { selected, skipped: skipped.filter((entry) => entry.name !== name) };
  }
  return { selected, skipped };
}

function askConfidence(
  strategy: ContextStrategy,
  request: ContextRequest,
  backends: Backends,
): { confidence: number; error?: string } {
  try {
    const answer = strategy.canHandle(request, backends);
    return { confidence: Number.isFinite(answer) ? Math.min(1, Math.max(0, answer)) : 0 };
  } catch (error) {
    return { confidence: 0, error: `canHandle failed: ${(error as Error).message}` };
  }
}
