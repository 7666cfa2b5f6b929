#!/usr/bin/env node
import { Command, CommanderError, Help } from "commander";
import { CtxError, describeError, InterruptedError, UsageError } from "../core/errors.js";
import { VERSION } from "../version.js";
import { COMMAND_SUMMARIES } from "./command-summaries.js";
import { writeErr } from "./output.js";

type Register = (program: Command, run: (action: () => Promise<number>) => Promise<void>) => void;

/**
 * Every command, in the order help lists them, by the names it registers and
 * how to load its registration. A run that names a command loads that one
 * alone: each module brings its option parsers and constants, and the work is
 * imported later still, inside the action.
 */
const COMMANDS: readonly { readonly names: readonly string[]; load(): Promise<Register> }[] = [
  {
    names: ["index"],
    load: async () => (await import("./commands/index-command.js")).registerIndexCommand,
  },
  {
    names: ["query"],
    load: async () => (await import("./commands/query-command.js")).registerQueryCommand,
  },
  {
    names: ["report"],
    load: async () => (await import("./commands/report-command.js")).registerReportCommand,
  },
  {
    names: ["search"],
    load: async () => (await import("./commands/search-command.js")).registerSearchCommand,
  },
  {
    names: ["symbols", "refs"],
    load: async () => (await import("./commands/symbol-commands.js")).registerSymbolCommands,
  },
  {
    names: ["map"],
    load: async () => (await import("./commands/map-command.js")).registerMapCommand,
  },
  {
    names: ["status"],
    load: async () => (await import("./commands/status-command.js")).registerStatusCommand,
  },
  {
    names: ["eval"],
    load: async () => (await import("./commands/eval-command.js")).registerEvalCommand,
  },
  {
    names: ["migrate"],
    load: async () => (await import("./commands/migrate-command.js")).registerMigrateCommand,
  },
  {
    names: ["languages"],
    load: async () => (await import("./commands/languages-command.js")).registerLanguagesCommand,
  },
  {
    names: ["strategies"],
    load: async () => (await import("./commands/strategies-command.js")).registerStrategiesCommand,
  },
  {
    names: ["project"],
    load: async () => (await import("./commands/project-command.js")).registerProjectCommand,
  },
  {
    names: ["plan"],
    load: async () => (await import("./commands/plan-command.js")).registerPlanCommand,
  },
  {
    names: ["serve"],
    load: async () => (await import("./commands/serve-command.js")).registerServeCommand,
  },
  {
    names: ["watch"],
    load: async () => (await import("./commands/watch-command.js")).registerWatchCommand,
  },
  {
    names: ["init"],
    load: async () => (await import("./commands/init-command.js")).registerInitCommand,
  },
  {
    names: ["trust", "untrust"],
    load: async () => (await import("./commands/trust-command.js")).registerTrustCommands,
  },
  {
    names: ["hook"],
    load: async () => (await import("./commands/hook-command.js")).registerHookCommand,
  },
];

/** `ctx --help` alone: the command list, which the summaries print without loading a command. */
function isProgramHelp(argv: readonly string[]): boolean {
  return argv.length === 3 && (argv[2] === "--help" || argv[2] === "-h");
}

/** Commands that only show their line in the program's help: nothing of theirs is loaded. */
function registerSummaries(program: Command): void {
  const usages = new Map<string, string>();
  for (const [usage, description] of COMMAND_SUMMARIES) {
    const name = usage.split(" ")[0] as string;
    usages.set(name, usage);
    program.command(name).description(description);
  }
  const standard = new Help();
  program.configureHelp({
    subcommandTerm: (command) => usages.get(command.name()) ?? standard.subcommandTerm(command),
  });
}

/** The commands a run needs: the one it names, none for --version, all for help and unknown names. */
function commandsFor(argv: readonly string[]): readonly { load(): Promise<Register> }[] {
  const first = argv[2];
  if (first === "--version" || first === "-V" || isProgramHelp(argv)) return [];
  const named = COMMANDS.find((command) => first !== undefined && command.names.includes(first));
  return named ? [named] : COMMANDS;
}

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
  const registers = await Promise.all(commandsFor(argv).map((command) => command.load()));
  for (const register of registers) register(program, run);
  if (isProgramHelp(argv)) registerSummaries(program);
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

/**
 * Ends the process once stdout and stderr have taken what was written. By now
 * the command has finished and closed what it opened; left to end by itself,
 * node would also tear down the heap and every native module first (about
 * 25 ms of an up-to-date `ctx query`).
 */
function exitWhenWritten(code: number): void {
  process.exitCode = code;
  const streams = [process.stdout, process.stderr].filter(
    (stream) => stream.writable && !stream.destroyed,
  );
  let pending = streams.length;
  const written = () => {
    if (--pending <= 0) process.exit(code);
  };
  if (pending === 0) written();
  // An error (the reader went away) also ends the wait: there is no one left to write to.
  for (const stream of streams) stream.write("", written);
}

main(process.argv).then(exitWhenWritten, (error: unknown) => {
  writeErr(`ctx: ${describeError(error)}\n`);
  exitWhenWritten(1);
});
