import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { Argument, type Command, Option } from "commander";
import { AGENTS, type AgentName } from "../../agents/agent-names.js";
import type { CtxInvocation } from "../../agents/agent-setup.js";
import { writeErr, writeOut } from "../output.js";
import { positiveInteger } from "../parse-options.js";

interface InitFlags {
  hook?: boolean;
  budget: number;
  dryRun?: boolean;
}

/** This CLI's entry point, for agents in projects that do not have ctx installed. */
const CLI_MAIN = fileURLToPath(new URL("../main.js", import.meta.url));

/**
 * The project's own install where it has one: a command that works on every
 * teammate's machine after `npm install`, and that `--no-install` keeps from
 * ever fetching a registry package of that name. Else this install of ctx,
 * by its paths on this machine.
 */
function ctxInvocation(root: string): CtxInvocation {
  return existsSync(join(root, "node_modules", ".bin", "context-engine"))
    ? { command: "npx", args: ["--no-install", "context-engine"] }
    : { command: process.execPath, args: [CLI_MAIN] };
}

export function registerInitCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command("init")
    .description(
      "set an agent up to use ctx in this project: its MCP entry for ctx serve (merged into existing files, never clobbered)",
    )
    .addArgument(new Argument("<agent>", "claude-code, cursor or codex").choices(AGENTS))
    .option(
      "--hook",
      "claude-code: also add a UserPromptSubmit hook that gives every prompt its context from ctx",
    )
    .addOption(
      new Option("--budget <tokens>", "token budget of the hook's context")
        .argParser(positiveInteger)
        .default(1500),
    )
    .option("--dry-run", "print what would change, write nothing")
    .action((agent: AgentName, flags: InitFlags) =>
      run(async () => {
        const { findProjectRoot } = await import("../../engine/locate-project.js");
        const { planSetup } = await import("../../agents/agent-setup.js");
        const root = findProjectRoot(process.cwd());
        const invocation = ctxInvocation(root);
        const files = planSetup(agent, root, invocation, {
          hook: flags.hook ?? false,
          hookBudget: flags.budget,
        });
        for (const file of files) {
          const shown = relative(process.cwd(), file.path) || file.path;
          const verb =
            file.before === null ? "create" : file.before === file.after ? "leave" : "update";
          if (flags.dryRun) {
            writeOut(
              verb === "leave"
                ? `would leave ${shown} as it is\n`
                : `would ${verb} ${shown}:\n${file.after}${file.after.endsWith("\n") ? "" : "\n"}`,
            );
            continue;
          }
          if (verb !== "leave") {
            mkdirSync(dirname(file.path), { recursive: true });
            writeFileSync(file.path, file.after);
          }
          writeOut(`${verb === "leave" ? "left" : `${verb}d`} ${shown}\n`);
        }
        if (invocation.command !== "npx") {
          writeErr(
            `ctx: the MCP entry names this machine's path to ctx (${CLI_MAIN}); for a command every teammate can run, install Context Engine into the project (npm install --save-dev PATH/TO/context-engine.tgz) and run ctx init again\n`,
          );
        }
        if (!flags.dryRun) writeOut(nextStep(agent, flags.hook ?? false));
        return 0;
      }),
    );
}

function nextStep(agent: AgentName, hook: boolean): string {
  switch (agent) {
    case "claude-code":
      return `Claude Code starts ctx serve from .mcp.json (approved for you in .claude/settings.local.json)${hook ? "; each prompt now carries its context from ctx (run ctx index once first, so the first prompt does not wait for it)" : ""}.\n`;
    case "cursor":
      return "Cursor starts ctx serve from .cursor/mcp.json (enable it under Settings → MCP).\n";
    case "codex":
      return "Codex reads .codex/config.toml in trusted projects; or copy its [mcp_servers.ctx] table to ~/.codex/config.toml.\n";
  }
}
