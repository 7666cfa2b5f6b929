/**
 * Start-up cost of the CLI, measured side by side in one run (rounds
 * interleaved, so the machine's drift touches every figure alike):
 *
 * - `ctx --version` and `ctx --help` against a bare `node -e 0` (target ≤ 2×);
 * - `ctx query` on an up-to-date small index against the query's own time
 *   (engine.query() timed inside a fresh process, as the CLI's one query runs
 *   cold; target ≤ 0.3 s more), and against the same questions on a warm engine;
 * - the prompt hook (`ctx hook claude-code`) with a `ctx serve --http` up for
 *   the project and without one (target ≤ 0.3 s p50 with).
 *
 * The project is this repository's src/cli and src/core (about 60 files), a
 * git checkout in a temporary folder. CTX_BENCH_START_ROUNDS sets the rounds
 * (default 20).
 */
import { type ChildProcess, execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ContextEngine } from "../dist/index.js";
import { percentile } from "./percentile.js";
import { spawnUntil } from "./spawn-until.js";

const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const ENGINE = new URL("../dist/engine/context-engine.js", import.meta.url).href;
const SOURCE = fileURLToPath(new URL("../src", import.meta.url));
const ROUNDS = Number(process.env.CTX_BENCH_START_ROUNDS ?? 20);
const QUESTIONS = [
  "where is the exit code of a failed command decided",
  "how does the CLI write to stdout without terminal escapes",
  "parse a positive integer option",
  "which errors are usage errors",
  "how is the index refreshed before a query",
];

const work = mkdtempSync(join(tmpdir(), "ctx-bench-start-"));
const env = { ...process.env, XDG_CONFIG_HOME: work, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };

/** A small git checkout of this repository's CLI and core sources, indexed. */
function project(name: string): string {
  const root = join(work, name);
  for (const part of ["cli", "core"])
    cpSync(join(SOURCE, part), join(root, "src", part), { recursive: true });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
  git("init", "-q");
  git("add", ".");
  git("-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "sources");
  const indexed = spawnSync(process.execPath, [CLI, "index"], { cwd: root, env, encoding: "utf8" });
  if (indexed.status !== 0) throw new Error(`ctx index failed: ${indexed.stderr}`);
  return root;
}

/** Wall milliseconds of one run of `node args…` in `cwd`, stdin `input`. */
function timed(args: readonly string[], cwd: string, input?: string): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, {
    cwd,
    env,
    encoding: "utf8",
    ...(input === undefined ? {} : { input }),
  });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`node ${args.join(" ")} failed: ${result.stderr}`);
  return elapsed;
}

/**
 * The query's own time as the CLI pays it: engine.query() alone, timed inside
 * a fresh process that has opened the engine (cold, as the CLI's one query is).
 */
function firstQueryTime(root: string, task: string): number {
  const script = `
    const { ContextEngine } = await import(${JSON.stringify(ENGINE)});
    const engine = await ContextEngine.open({ start: process.cwd() });
    const started = performance.now();
    await engine.query({ task: ${JSON.stringify(task)}, budget: 1500 });
    process.stdout.write(String(performance.now() - started));
    await engine.close();`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: root,
    env,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`the in-process query failed: ${result.stderr}`);
  return Number(result.stdout);
}

async function startServer(root: string): Promise<ChildProcess> {
  const args = [CLI, "serve", "--http", "127.0.0.1:0", "--no-watch"];
  const ready = /serving .* at http:/;
  return (await spawnUntil(args, { cwd: root, env, ready, timeoutMs: 60_000 })).child;
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
};
const ms = (value: number) => `${Math.round(value)} ms`;

let server: ChildProcess | undefined;
try {
  const served = project("served");
  const alone = project("alone");
  server = await startServer(served);
  const hookInput = (root: string, task: string) => JSON.stringify({ prompt: task, cwd: root });

  const runs: Record<string, number[]> = {
    bare: [],
    version: [],
    help: [],
    query: [],
    firstQuery: [],
    hookServed: [],
    hookAlone: [],
  };
  for (let round = 0; round < ROUNDS; round++) {
    const task = QUESTIONS[round % QUESTIONS.length] as string;
    runs.bare?.push(timed(["-e", "0"], alone));
    runs.version?.push(timed([CLI, "--version"], alone));
    runs.help?.push(timed([CLI, "--help"], alone));
    runs.query?.push(timed([CLI, "query", task, "--budget", "1500"], alone));
    runs.firstQuery?.push(firstQueryTime(alone, task));
    runs.hookServed?.push(timed([CLI, "hook", "claude-code"], served, hookInput(served, task)));
    runs.hookAlone?.push(timed([CLI, "hook", "claude-code"], alone, hookInput(alone, task)));
  }

  // The query's own time: the same questions through an engine already open in this process.
  const engine = await ContextEngine.open({ start: alone, env: { XDG_CONFIG_HOME: work } });
  const own: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      await engine.query({ task: QUESTIONS[round % QUESTIONS.length] as string, budget: 1500 });
      own.push(performance.now() - started);
    }
  } finally {
    await engine.close();
  }

  const bare = stats(runs.bare ?? []);
  const line = (label: string, values: number[]) => {
    const { p50, p99 } = stats(values);
    console.log(
      `${label}: p50 ${ms(p50)}, p99 ${ms(p99)} (${(p50 / bare.p50).toFixed(2)}× bare node p50)`,
    );
    return p50;
  };
  console.log(
    `node ${process.version}; rounds: ${ROUNDS}, interleaved; project: ${QUESTIONS.length} questions over src/cli + src/core`,
  );
  console.log(`bare node -e 0: p50 ${ms(bare.p50)}, p99 ${ms(bare.p99)}`);
  const version = line("ctx --version", runs.version ?? []);
  const help = line("ctx --help", runs.help ?? []);
  console.log(
    `  --version / bare: ${(version / bare.p50).toFixed(2)}×, --help / bare: ${(help / bare.p50).toFixed(2)}× (target ≤ 2×)`,
  );
  const query = line("ctx query (index up to date)", runs.query ?? []);
  const firstP50 = stats(runs.firstQuery ?? []).p50;
  const warmP50 = stats(own).p50;
  console.log(
    `  the query's own time: p50 ${ms(firstP50)} as the first query of a process, ${ms(warmP50)} on a warm engine`,
  );
  console.log(
    `  ctx query wall over the query's own time: ${ms(query - firstP50)} (target ≤ 300 ms); over the warm query ${ms(query - warmP50)}`,
  );
  const hookServed = line("hook with ctx serve --http up", runs.hookServed ?? []);
  const hookAlone = line("hook without a server", runs.hookAlone ?? []);
  console.log(
    `  hook p50 with a server ${ms(hookServed)} (target ≤ 300 ms), without ${ms(hookAlone)}`,
  );
} finally {
  server?.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}
