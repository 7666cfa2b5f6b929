import { Argument, type Command, Option } from "commander";
import { jsonText } from "../../text/visible-text.js";
import { ensureIndex } from "../ensure-index.js";
import { writeErr, writeOut } from "../output.js";
import { positiveInteger } from "../parse-options.js";
import { openEngine } from "../with-engine.js";

interface HookFlags {
  budget: number;
}

/** What Claude Code sends a UserPromptSubmit hook on stdin (the fields used here). */
interface PromptHookInput {
  readonly prompt?: unknown;
  readonly cwd?: unknown;
}

async function readStdin(): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of process.stdin) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

/**
 * `ctx hook claude-code`: the UserPromptSubmit hook `ctx init claude-code
 * --hook` installs. Reads the prompt Claude Code sends on stdin, assembles its
 * context within a small budget and returns it as `additionalContext`, so the
 * agent starts the turn with it. It never stands in the way of a prompt: any
 * failure is a line on stderr and no context, exit 0.
 */
export function registerHookCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command("hook")
    .description("run as an agent's prompt hook (installed by ctx init claude-code --hook)")
    .addArgument(new Argument("<agent>", "the agent calling").choices(["claude-code"]))
    .addOption(
      new Option("--budget <tokens>", "token budget of the context")
        .argParser(positiveInteger)
        .default(1500),
    )
    .action((_agent: string, flags: HookFlags) =>
      run(async () => {
        try {
          const input = JSON.parse(await readStdin()) as PromptHookInput;
          const prompt = typeof input.prompt === "string" ? input.prompt.trim() : "";
          if (prompt.length === 0) return 0;
          const cwd = typeof input.cwd === "string" ? input.cwd : process.cwd();
          const engine = await openEngine({ cwd, start: cwd });
          try {
            await ensureIndex(engine, true);
            const result = await engine.query({ task: prompt, budget: flags.budget });
            if (result.fragments.length === 0) return 0;
            const additionalContext = `${result.output}\n(Context Engine request ${result.requestId}: call the ctx MCP tools get_context or read_fragment for more.)`;
            writeOut(
              `${jsonText({
                hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext },
              })}\n`,
            );
          } finally {
            await engine.close();
          }
        } catch (error) {
          writeErr(`ctx: no context for this prompt: ${(error as Error).message.split("\n")[0]}\n`);
        }
        return 0;
      }),
    );
}
