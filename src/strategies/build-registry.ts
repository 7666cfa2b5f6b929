import type { StrategyConfig } from "../config/strategy-config.js";
import type { StrategyContext } from "../core/strategy.js";
import { registerBuiltIns } from "./builtins/register-builtins.js";
import { loadCustomStrategies } from "./load-custom-strategies.js";
import { StrategyRegistry } from "./registry.js";

/** The built-ins plus the custom strategies the config names, validated. */
export async function buildRegistry(
  config: StrategyConfig,
  context: StrategyContext,
): Promise<StrategyRegistry> {
  const registry = new StrategyRegistry();
  registerBuiltIns(registry, context);
  await loadCustomStrategies(registry, config.custom, context);
  registry.assertEnabled(
    config.enabled,
    config.enabledSource === "default" ? "default strategies" : config.enabledSource,
  );
  return registry;
}
