import type { StrategyContext } from "../../core/strategy.js";
import type { StrategyRegistry } from "../registry.js";
import { BreadthDepthNavigatorStrategy } from "./breadth-depth-navigator.js";
import type { NavigatorSettings } from "./navigator-settings.js";
import { PlanDecisionContextStrategy } from "./plan-decision-context.js";
import { SemanticEmbeddingStrategy } from "./semantic-embedding.js";
import { SimpleKeywordStrategy } from "./simple-keyword.js";
import { TemporalArchaeologyStrategy } from "./temporal-archaeology.js";

/** Settings the built-ins take from the config. */
export interface BuiltInSettings {
  readonly navigator: NavigatorSettings;
}

/** Registers every built-in strategy; a new built-in is one line here. */
export function registerBuiltIns(
  registry: StrategyRegistry,
  context: StrategyContext,
  settings: BuiltInSettings,
): void {
  registry.register(new SimpleKeywordStrategy(context.counter), "built-in");
  registry.register(new SemanticEmbeddingStrategy(context.counter), "built-in");
  registry.register(
    new BreadthDepthNavigatorStrategy(context.counter, settings.navigator),
    "built-in",
  );
  registry.register(new TemporalArchaeologyStrategy(context.counter), "built-in");
  registry.register(new PlanDecisionContextStrategy(context.counter), "built-in");
}
