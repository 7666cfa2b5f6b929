import type { Command } from "commander";
import { UsageError } from "../../core/errors.js";
import type { StrategyCapabilities } from "../../core/strategy.js";
import {
  expandPipelineNames,
  FUSED_PIPELINE,
  FUSED_PIPELINE_STRATEGIES,
} from "../../strategies/fused-pipeline.js";
import { TOKENS_PER_FRAGMENT } from "../../strategies/strategy-settings.js";
import { jsonText } from "../../text/visible-text.js";
import { writeOut } from "../output.js";
import { dbFlag, dbOption, withEngine } from "../with-engine.js";

/** What `arce` stands for, in one line. */
const FUSED_PIPELINE_LINE = `${FUSED_PIPELINE} = ${FUSED_PIPELINE_STRATEGIES.join(" + ")} in one ranking, the [rerank] reranker re-scoring its top when configured (the default pipeline)`;

function backendsOf(capabilities: StrategyCapabilities): string {
  const names = [
    capabilities.usesText ? "text" : "",
    capabilities.usesVector ? "vector" : "",
    capabilities.usesGraph ? "graph" : "",
    capabilities.usesTemporal ? "temporal" : "",
  ].filter((name) => name.length > 0);
  return names.join("+");
}

export function registerStrategiesCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  const strategies = program
    .command("strategies")
    .description("the retrieval strategies this project can use");

  strategies
    .command("list")
    .description("name, quality, backends, enabled, breaker state")
    .option("--json", "print as JSON")
    .addOption(dbFlag())
    .action((flags: { json?: boolean; db?: string }) =>
      run(async () => {
        return withEngine(
          {
            ifMissing: "in-memory",
            ...dbOption(flags),
          },
          async (engine) => {
            const configured = await engine.enabledStrategies();
            const { source } = configured;
            const enabled = expandPipelineNames(configured.enabled);
            const rows = engine.registry.list().map(({ strategy, origin }) => {
              const settings = engine.config.strategies.settingsFor(strategy.name);
              return {
                name: strategy.name,
                quality: strategy.capabilities.qualityScore,
                backends: backendsOf(strategy.capabilities),
                enabled: enabled.includes(strategy.name) && settings.enabled,
                breaker: engine.pipeline.breakers.state(strategy.name),
                origin,
              };
            });
            if (flags.json) {
              const pipelines = [{ name: FUSED_PIPELINE, strategies: FUSED_PIPELINE_STRATEGIES }];
              writeOut(`${jsonText({ enabledFrom: source, strategies: rows, pipelines })}\n`);
              return 0;
            }
            const header = ["NAME", "QUALITY", "BACKENDS", "ENABLED", "BREAKER", "FROM"];
            const table = [
              header,
              ...rows.map((row) => [
                row.name,
                row.quality.toFixed(2),
                row.backends,
                row.enabled ? "yes" : "no",
                row.breaker,
                row.origin,
              ]),
            ];
            const widths = header.map((_, column) =>
              Math.max(...table.map((cells) => (cells[column] ?? "").length)),
            );
            for (const cells of table) {
              writeOut(
                `${cells
                  .map((cell, column) => cell.padEnd(widths[column] ?? 0))
                  .join("  ")
                  .trimEnd()}\n`,
              );
            }
            writeOut(`(enabled list from: ${source})\n${FUSED_PIPELINE_LINE}\n`);
            return 0;
          },
        );
      }),
    );

  strategies
    .command("explain")
    .description("what a strategy does, what it needs and how it is configured")
    .argument("<name>", "strategy name")
    .action((name: string) =>
      run(async () => {
        return withEngine({ ifMissing: "in-memory" }, async (engine) => {
          const strategy = engine.registry.get(name);
          if (!strategy && name === FUSED_PIPELINE) {
            writeOut(`${FUSED_PIPELINE_LINE}\n`);
            return 0;
          }
          if (!strategy) {
            const known = [
              ...engine.registry.list().map((entry) => entry.strategy.name),
              FUSED_PIPELINE,
            ]
              .sort()
              .join(", ");
            throw new UsageError(`unknown strategy "${name}"; registered: ${known}`);
          }
          const settings = engine.config.strategies.settingsFor(name);
          const { capabilities } = strategy;
          const lines = [
            strategy.explain(),
            "",
            `backends: ${backendsOf(capabilities)} · resource types: ${capabilities.resourceTypes.join(", ")} · quality ${capabilities.qualityScore}`,
            `supports: depth/breadth ${capabilities.supportsDepthBreadth}, plan hierarchy ${capabilities.supportsPlanHierarchy}, temporal ${capabilities.supportsTemporal}`,
            `settings: timeout ${settings.timeoutSeconds} s, max fragments ${settings.maxFragments}${settings.maxFragmentsScaled ? ` (or one per ${TOKENS_PER_FRAGMENT} tokens of budget)` : ""}, max workers ${settings.maxWorkers}, breaker after ${settings.circuitBreakerThreshold} failures (cool-down ${settings.circuitBreakerCooldownSeconds} s), max budget share ${settings.maxBudgetShare}, enabled ${settings.enabled}`,
            `breaker: ${engine.pipeline.breakers.state(name)}`,
          ];
          writeOut(`${lines.join("\n")}\n`);
          return 0;
        });
      }),
    );
}
