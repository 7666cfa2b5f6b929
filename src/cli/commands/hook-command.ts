import { Argument, type Command, Option } from "commander";
import { jsonText } from "../../text/visible-text.js";
import type { ServerAnswer } from "../ask-server.js";
import { writeErr, writeOut } from "../output.js";
import { positiveInteger } from "../parse-options.js";
import { nearestCtxRoot, readServerFile } from "../server-file.js";
import { openEngine } from "../with-engine.js";

/** How long the hook waits for a running watcher to finish writing a change. */
const HOOK_WATCHER_WAIT_MS = 1500;

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
          const answer =
            (await answerFromServer(cwd, prompt, flags.budget)) ??
            (await answerInProcess(cwd, prompt, flags.budget));
          if (answer.fragments === 0) return 0;
          const additionalContext = `${answer.output}\n(Context Engine request ${answer.requestId}: call the ctx MCP tools get_context or read_fragment for more.)`;
          writeOut(
            `${jsonText({
              hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext },
            })}\n`,
          );
        } catch (error) {
          writeErr(`ctx: no context for this prompt: ${(error as Error).message.split("\n")[0]}\n`);
        }
        return 0;
      }),
    );
}

/**
 * The context from a running `ctx serve --http` for this project, when one
 * announced itself in `.ctx/server.json` (see server-file.ts): a warm engine
 * answers in milliseconds where a fresh process first loads it. Null when
 * there is none or it cannot answer; the hook then answers itself.
 */
async function answerFromServer(
  cwd: string,
  prompt: string,
  budget: number,
): Promise<ServerAnswer | null> {
  const root = nearestCtxRoot(cwd);
  if (root === null) return null;
  const found = readServerFile(root);
  if (!found.ok) {
    if (found.reason !== "missing" && found.reason !== "stale")
      writeErr(`ctx: answering without the server: ${found.detail}\n`);
    return null;
  }
  const { contextFromServer, ServerUnavailableError } = await import("../ask-server.js");
  try {
    return await contextFromServer(found.server, prompt, budget);
  } catch (error) {
    if (!(error instanceof ServerUnavailableError)) throw error;
    if (process.env.CTX_DEBUG) writeErr(`ctx: answering without the server: ${error.message}\n`);
    return null;
  }
}

/** The context from this process: opens the engine, refreshes what changed, queries. */
async function answerInProcess(cwd: string, prompt: string, budget: number): Promise<ServerAnswer> {
  const { ensureIndex } = await import("../ensure-index.js");
  const engine = await openEngine({ cwd, start: cwd });
  try {
    // A prompt does not wait long for a watcher writing a change: the stored index answers.
    await ensureIndex(engine, true, { watcherWaitMs: HOOK_WATCHER_WAIT_MS, graph: true });
    const result = await engine.query({ task: prompt, budget });
    return {
      output: result.output,
      requestId: result.requestId,
      fragments: result.fragments.length,
    };
  } finally {
    await engine.close();
  }
}
