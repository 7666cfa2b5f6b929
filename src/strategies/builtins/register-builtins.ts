import type { StrategyContext } from "../../core/strategy.js";
import type { StrategyRegistry } from "../registry.js";
import { SimpleKeywordStrategy } from "./simple-keyword.js";

/** Registers every built-in strategy; a new built-in is one line here. */
export function registerBuiltIns(registry: StrategyRegistry, context: StrategyContext): void {
  registry.register(new SimpleKeywordStrategy(context.counter), "built-in");
}
