import { dirname } from "node:path";
import {
  type CustomStrategySpec,
  DEFAULT_ENABLED_STRATEGIES,
  DEFAULT_STRATEGY_SETTINGS,
  type StrategyConfig,
} from "../strategies/strategy-settings.js";
import type { ConfigFile } from "./schema.js";

type SettingsEntry = NonNullable<
  NonNullable<NonNullable<ConfigFile["context"]>["strategies"]>["settings"]
>[string];

/**
 * Merges `[context.strategies]` across config files, later files winning: the
 * `enabled` list as a whole, custom strategies and settings name by name and
 * key by key.
 */
export function resolveStrategyConfig(
  files: readonly { path: string; config: ConfigFile }[],
): StrategyConfig {
  let enabled: readonly string[] = DEFAULT_ENABLED_STRATEGIES;
  let enabledSource = "default";
  const custom = new Map<string, CustomStrategySpec>();
  const settings = new Map<string, SettingsEntry>();
  for (const { path, config } of files) {
    const section = config.context?.strategies;
    if (!section) continue;
    if (section.enabled) {
      enabled = section.enabled;
      enabledSource = path;
    }
    for (const [name, spec] of Object.entries(section.custom ?? {})) {
      const colon = spec.lastIndexOf(":");
      custom.set(name, {
        name,
        modulePath: spec.slice(0, colon),
        exportName: spec.slice(colon + 1),
        baseDir: dirname(path),
        source: path,
      });
    }
    for (const [name, values] of Object.entries(section.settings ?? {})) {
      settings.set(name, { ...settings.get(name), ...values });
    }
  }
  return {
    enabled,
    enabledSource,
    custom: [...custom.values()],
    settingsFor: (name) => {
      const entry = settings.get(name) ?? {};
      const d = DEFAULT_STRATEGY_SETTINGS;
      return {
        timeoutSeconds: entry.timeout_seconds ?? d.timeoutSeconds,
        maxFragments: entry.max_fragments ?? d.maxFragments,
        maxFragmentsScaled: entry.max_fragments === undefined,
        maxWorkers: entry.max_workers ?? d.maxWorkers,
        circuitBreakerThreshold: entry.circuit_breaker_threshold ?? d.circuitBreakerThreshold,
        circuitBreakerCooldownSeconds:
          entry.circuit_breaker_cooldown_seconds ?? d.circuitBreakerCooldownSeconds,
        maxBudgetShare: entry.max_budget_share ?? d.maxBudgetShare,
        enabled: entry.enabled ?? d.enabled,
      };
    },
  };
}
