import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ContextStrategy, StrategyContext } from "../core/strategy.js";
import { type StrategyRegistry, StrategyRegistryError } from "./registry.js";
import type { CustomStrategySpec } from "./strategy-settings.js";

/**
 * Imports each custom strategy (`module-path:ExportName`, relative paths taken
 * from the config file's folder) and registers it under its configured name.
 * The export may be a class (constructed with the context), a factory function
 * (called with it) or a ready strategy object.
 */
export async function loadCustomStrategies(
  registry: StrategyRegistry,
  specs: readonly CustomStrategySpec[],
  context: StrategyContext,
): Promise<void> {
  for (const spec of specs) {
    const where = `${spec.source}: [context.strategies.custom] "${spec.name}"`;
    const specifier = moduleSpecifier(spec, where);
    let module: Record<string, unknown>;
    try {
      module = (await import(specifier)) as Record<string, unknown>;
    } catch (error) {
      throw new StrategyRegistryError(
        `${where}: cannot import ${spec.modulePath}: ${(error as Error).message.split("\n")[0]}`,
      );
    }
    const exported = module[spec.exportName];
    if (exported === undefined) {
      const names = Object.keys(module).join(", ") || "none";
      throw new StrategyRegistryError(
        `${where}: ${spec.modulePath} has no export "${spec.exportName}" (exports: ${names})`,
      );
    }
    const strategy = instantiate(exported, context, where);
    if ((strategy as { name?: unknown }).name !== spec.name) {
      throw new StrategyRegistryError(
        `${where}: the strategy calls itself "${String((strategy as { name?: unknown }).name)}"; its name must be "${spec.name}"`,
      );
    }
    registry.register(strategy, spec.source);
  }
}

function moduleSpecifier(spec: CustomStrategySpec, where: string): string {
  const isPath = spec.modulePath.startsWith(".") || isAbsolute(spec.modulePath);
  if (!isPath) return spec.modulePath;
  const file = resolve(spec.baseDir, spec.modulePath);
  if (!existsSync(file)) throw new StrategyRegistryError(`${where}: module not found: ${file}`);
  return pathToFileURL(file).href;
}

function instantiate(exported: unknown, context: StrategyContext, where: string): ContextStrategy {
  try {
    if (typeof exported === "function") {
      const isClass = /^class\b/.test(Function.prototype.toString.call(exported));
      const made: unknown = isClass
        ? new (exported as new (context: StrategyContext) => unknown)(context)
        : (exported as (context: StrategyContext) => unknown)(context);
      return made as ContextStrategy;
    }
    return exported as ContextStrategy;
  } catch (error) {
    throw new StrategyRegistryError(
      `${where}: constructing the strategy failed: ${(error as Error).message}`,
    );
  }
}
