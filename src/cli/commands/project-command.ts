import type { Command } from "commander";
import type { ContextEngine } from "../../engine/context-engine.js";
import { writeJson, writeOut } from "../output.js";
import { collect } from "../parse-options.js";
import { dbFlag, dbOption, withEngine } from "../with-engine.js";

export function registerProjectCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  const project = program
    .command("project")
    .description("this project's own settings, kept with its index");
  const context = project
    .command("context")
    .description("which strategies assemble this project's context");

  const show = async (engine: ContextEngine, json: boolean) => {
    const current = await engine.enabledStrategies();
    if (json) {
      writeJson({ project: engine.project, ...current });
      return;
    }
    const from =
      current.source === "project"
        ? "project override (ctx project context set)"
        : current.source === "config"
          ? `config ${current.file}`
          : "default";
    writeOut(`${engine.project}: ${current.enabled.join(", ")}\n(from ${from})\n`);
  };

  context
    .command("set")
    .description("replace the enabled strategies for this project")
    .requiredOption("-s, --strategy <name>", "a strategy to enable (repeat for several)", collect)
    .addOption(dbFlag())
    .action((flags: { strategy: string[]; db?: string }) =>
      run(async () => {
        return withEngine({ ...dbOption(flags) }, async (engine) => {
          await engine.setProjectStrategies(flags.strategy);
          await show(engine, false);
          return 0;
        });
      }),
    );

  context
    .command("show")
    .description("the strategies enabled for this project and where the list comes from")
    .option("--json", "print as JSON")
    .addOption(dbFlag())
    .action((flags: { json?: boolean; db?: string }) =>
      run(async () => {
        return withEngine({ ...dbOption(flags) }, async (engine) => {
          await show(engine, flags.json ?? false);
          return 0;
        });
      }),
    );

  context
    .command("reset")
    .description("drop the project's override and use the configured strategies again")
    .addOption(dbFlag())
    .action((flags: { db?: string }) =>
      run(async () => {
        return withEngine({ ...dbOption(flags) }, async (engine) => {
          await engine.setProjectStrategies(null);
          await show(engine, false);
          return 0;
        });
      }),
    );
}
