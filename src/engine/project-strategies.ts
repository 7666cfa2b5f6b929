import type { ResolvedConfig } from "../config/resolved-config.js";
import { UsageError } from "../core/errors.js";
import type { Store } from "../core/store.js";
import type { StrategyRegistry } from "../strategies/registry.js";
import type { EnabledStrategies } from "./engine-options.js";

/** A project's enabled strategies: its own override in the index, else the configured list. */
export async function enabledStrategiesOf(
  store: Store,
  registry: StrategyRegistry,
  project: string,
  config: ResolvedConfig,
): Promise<EnabledStrategies> {
  const record = await store.state.getProject(project);
  if (record.enabledStrategies) {
    registry.assertEnabled(
      record.enabledStrategies,
      `project ${project} (ctx project context set)`,
    );
    return { enabled: record.enabledStrategies, source: "project" };
  }
  const { enabled, enabledSource } = config.strategies;
  if (enabledSource !== "default") return { enabled, source: "config", file: enabledSource };
  return { enabled, source: "default" };
}

/** Replaces the project's enabled strategies (null restores the configured list). */
export async function setProjectStrategies(
  store: Store,
  registry: StrategyRegistry,
  project: string,
  strategies: readonly string[] | null,
): Promise<void> {
  if (strategies !== null) {
    if (strategies.length === 0) throw new UsageError("name at least one strategy with --strategy");
    registry.assertEnabled(strategies, "--strategy");
  }
  await store.state.setProjectStrategies(project, strategies);
}
