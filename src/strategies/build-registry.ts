import type { ContextStrategy, StrategyContext } from "../core/strategy.js";
import { type BuiltInSettings, registerBuiltIns } from "./builtins/register-builtins.js";
import { loadCustomStrategies } from "./load-custom-strategies.js";
import { StrategyRegistry } from "./registry.js";
import type { StrategyConfig } from "./strategy-settings.js";

/**
 * The built-ins, strategies given through the library API, and the custom ones
 * the config names; validated, including that every enabled one is registered.
 */
export async function buildRegistry(
  config: StrategyConfig,
  context: StrategyContext,
  builtIns: BuiltInSettings,
  extra: readonly ContextStrategy[] = [],
): Promise<StrategyRegistry> {
  const registry = new StrategyRegistry();
  registerBuiltIns(registry, context, builtIns);
  for (const strategy of extra) registry.register(strategy, "api");
  await loadCustomStrategies(registry, config.custom, context);
  registry.assertEnabled(
    config.enabled,
    config.enabledSource === "default" ? "default strategies" : config.enabledSource,
  );
  return registry;
}
