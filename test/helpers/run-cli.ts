import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { constants as osConstants } from "node:os";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

const NO_PROVIDERS = {
  ANTHROPIC_API_KEY: "",
  ANTHROPIC_BASE_URL: "",
  CLAUDE_CODE_OAUTH_TOKEN: "",
  OPENAI_API_KEY: "",
  OPENAI_BASE_URL: "",
  CTX_EMBEDDER: "",
};

/** The environment the CLI runs with in tests: no model keys from the machine, the config under `cwd`. */
export function cliEnv(cwd: string, env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, XDG_CONFIG_HOME: cwd, ...NO_PROVIDERS, ...env };
}

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built `ctx` binary in a subprocess, as a user would. */
export function runCli(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
  input?: string,
): CliResult {
  return runCliAt(CLI, args, cwd, env, input);
}

/** Runs a `ctx` binary at another place (an installed copy) in a subprocess. */
export function runCliAt(
  cli: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
  input?: string,
): CliResult {
  if (!existsSync(cli))
    throw new Error(`${cli} is missing: run \`npm run build\` before the CLI tests`);
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    encoding: "utf8",
    // No model keys leak in from the machine: tests that want a provider say so.
    env: { ...process.env, XDG_CONFIG_HOME: cwd, ...NO_PROVIDERS, ...env },
    timeout: 60_000,
    ...(input === undefined ? {} : { input }),
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs the CLI without blocking this process's event loop: needed when the test
 * serves something (a model API) the CLI calls.
 */
export function runCliAsync(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
  cli: string = CLI,
): Promise<CliResult> {
  return spawnCli(args, cwd, env, cli).result;
}

/** Starts the CLI and hands over its process (to signal it) with the result to come. */
export function spawnCli(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
  cli: string = CLI,
): { process: ChildProcess; result: Promise<CliResult> } {
  if (!existsSync(cli))
    throw new Error(`${cli} is missing: run \`npm run build\` before the CLI tests`);
  const child = spawn(process.execPath, [cli, ...args], {
    cwd,
    env: { ...process.env, XDG_CONFIG_HOME: cwd, ...NO_PROVIDERS, ...env },
  });
  const result = new Promise<CliResult>((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => {
      stdout += data.toString();
    });
    child.stderr.on("data", (data: Buffer) => {
      stderr += data.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        code: code ?? (signal ? 128 + (osConstants.signals[signal] ?? 0) : -1),
        stdout,
        stderr,
      });
    });
  });
  return { process: child, result };
}

/**
 * Starts the CLI (`ctx watch`, `ctx serve`) and resolves once its stderr holds
 * `ready`, with what it printed by then; rejects after `timeoutMs`.
 */
export async function startCliUntil(
  args: readonly string[],
  cwd: string,
  ready: string,
  timeoutMs = 60_000,
): Promise<{ process: ChildProcess; result: Promise<CliResult>; stderr: string }> {
  const started = spawnCli(args, cwd);
  let stderr = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`ctx ${args.join(" ")} did not start: ${stderr}`)),
      timeoutMs,
    );
    started.process.stderr?.on("data", (data: Buffer) => {
      stderr += data.toString();
      if (stderr.includes(ready)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { ...started, stderr };
}
