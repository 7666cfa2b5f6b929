#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { CtxError, describeError, InterruptedError, UsageError } from "../core/errors.js";
import { VERSION } from "../version.js";
import { registerEvalCommand } from "./commands/eval-command.js";
import { registerHookCommand } from "./commands/hook-command.js";
import { registerIndexCommand } from "./commands/index-command.js";
import { registerInitCommand } from "./commands/init-command.js";
import { registerMapCommand } from "./commands/map-command.js";
import { registerMigrateCommand } from "./commands/migrate-command.js";
import { registerPlanCommand } from "./commands/plan-command.js";
import { registerProjectCommand } from "./commands/project-command.js";
import { registerQueryCommand } from "./commands/query-command.js";
import { registerReportCommand } from "./commands/report-command.js";
import { registerSearchCommand } from "./commands/search-command.js";
import { registerServeCommand } from "./commands/serve-command.js";
import { registerStatusCommand } from "./commands/status-command.js";
import { registerStrategiesCommand } from "./commands/strategies-command.js";
import { registerSymbolCommands } from "./commands/symbol-commands.js";
import { registerTrustCommands } from "./commands/trust-command.js";
import { registerWatchCommand } from "./commands/watch-command.js";
import { writeErr } from "./output.js";

/** Runs the CLI and returns its exit code: 0 ok, 1 failure, 2 bad usage. */
export async function main(argv: readonly string[]): Promise<number> {
  let exitCode = 0;
  const run = async (action: () => Promise<number>): Promise<void> => {
    try {
      exitCode = await action();
    } catch (error) {
      writeErr(`ctx: ${describeError(error)}\n`);
      if (!(error instanceof CtxError) && process.env.CTX_DEBUG)
        writeErr(`${(error as Error).stack}\n`);
      exitCode =
        error instanceof UsageError ? 2 : error instanceof InterruptedError ? error.exitCode : 1;
    }
  };
  const program = new Command()
    .name("ctx")
    .description("Context Engine: the right context from a codebase, within a token budget")
    .version(VERSION)
    .showHelpAfterError("(run ctx --help for usage)")
    .exitOverride()
    .configureOutput({
      writeErr: (text) => writeErr(text.startsWith("error:") ? `ctx: ${text}` : text),
    });
  registerIndexCommand(program, run);
  registerQueryCommand(program, run);
  registerReportCommand(program, run);
  registerSearchCommand(program, run);
  registerSymbolCommands(program, run);
  registerMapCommand(program, run);
  registerStatusCommand(program, run);
  registerEvalCommand(program, run);
  registerMigrateCommand(program, run);
  registerStrategiesCommand(program, run);
  registerProjectCommand(program, run);
  registerPlanCommand(program, run);
  registerServeCommand(program, run);
  registerWatchCommand(program, run);
  registerInitCommand(program, run);
  registerTrustCommands(program, run);
  registerHookCommand(program, run);
  try {
    await program.parseAsync(argv, { from: "node" });
  } catch (error) {
    if (error instanceof CommanderError) {
      const isInformational =
        error.code === "commander.helpDisplayed" ||
        error.code === "commander.version" ||
        error.code === "commander.help";
      return isInformational ? 0 : 2;
    }
    throw error;
  }
  return exitCode;
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    writeErr(`ctx: ${describeError(error)}\n`);
    process.exitCode = 1;
  },
);
