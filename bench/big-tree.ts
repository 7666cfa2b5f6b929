/**
 * Queries on a big tree beside a small one: generated git checkouts of 2,000
 * and 200,000 files (bench/synthetic-tree.ts; CTX_BENCH_BIG_TREE sets the
 * larger size), each indexed with the built CLI, then the same kind of
 * question asked of each: `ctx query` (with its refresh, and with
 * --no-refresh, a new process each time; and while `ctx watch` runs, which
 * spares the query its refresh when the watcher gets file events) and MCP get_context on a warm
 * `ctx serve`. Prints p50 of each beside the other and the ratio (target:
 * at most 3× at 200,000 files). The trees are generated once into the bench
 * cache (CTX_BENCH_CACHE); each run indexes them afresh.
 */
import { type ChildProcess, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { percentile } from "./percentile.js";
import { spawnUntil } from "./spawn-until.js";
import { syntheticQuestions, syntheticTree } from "./synthetic-tree.js";

const SMALL = 2000;
const BIG = Number(process.env.CTX_BENCH_BIG_TREE ?? 200_000);
/** Questions timed per way of asking, after one that warms the caches. */
const QUESTIONS = 7;
const BUDGET = 4000;
const CLI = new URL("../dist/cli/main.js", import.meta.url).pathname;

interface TreeTimes {
  readonly files: number;
  readonly generateSeconds: number;
  readonly indexSeconds: number;
  readonly refreshing: number;
  readonly noRefresh: number;
  /** `ctx query` while `ctx watch` runs: the query skips its refresh while the watcher listens. */
  readonly watched: number;
  /** How the watcher learnt of changes: file events, or polling (the system's limit on watches). */
  readonly watchMode: "events" | "polling";
  readonly server: number;
}

const cache = process.env.CTX_BENCH_CACHE ?? join(tmpdir(), "ctx-bench-cache");
const work = mkdtempSync(join(tmpdir(), "ctx-bench-big-tree-"));
// No user configuration: the defaults, as a new user has them.
const env = { ...process.env, XDG_CONFIG_HOME: join(work, "config") };
mkdirSync(env.XDG_CONFIG_HOME, { recursive: true });

function ctx(root: string, args: readonly string[]): void {
  execFileSync(process.execPath, [CLI, ...args], {
    cwd: root,
    env,
    stdio: ["ignore", "ignore", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** p50 of `ask` over the questions, in ms, after one warm-up question. */
async function p50(
  questions: readonly string[],
  ask: (question: string) => Promise<void> | void,
): Promise<number> {
  await ask(questions[0] as string);
  const times: number[] = [];
  for (const question of questions.slice(1)) {
    const started = performance.now();
    await ask(question);
    times.push(performance.now() - started);
  }
  return percentile(
    times.sort((a, b) => a - b),
    0.5,
  );
}

/** Starts `ctx watch` on an indexed tree; resolves once it watches, saying how. */
async function startWatch(
  root: string,
  db: string,
): Promise<{ child: ChildProcess; mode: "events" | "polling" }> {
  const args = [CLI, "watch", "--db", db];
  const ready = /for changes/;
  const { child, stderr } = await spawnUntil(args, { cwd: root, env, ready, timeoutMs: 600_000 });
  return { child, mode: stderr.includes("looking for changes every") ? "polling" : "events" };
}

async function timeTree(files: number): Promise<TreeTimes> {
  mkdirSync(cache, { recursive: true });
  let started = performance.now();
  const { root } = syntheticTree(cache, files, true);
  const generateSeconds = (performance.now() - started) / 1000;
  const db = join(work, `index-${files}.db`);
  started = performance.now();
  ctx(root, ["index", "--db", db]);
  const indexSeconds = (performance.now() - started) / 1000;
  const questions = syntheticQuestions(files, QUESTIONS + 1);
  const query = (extra: readonly string[]) => (question: string) =>
    ctx(root, ["query", question, "--budget", String(BUDGET), "--db", db, ...extra]);
  const refreshing = await p50(questions, query([]));
  const noRefresh = await p50(questions, query(["--no-refresh"]));
  const watch = await startWatch(root, db);
  let watched: number;
  try {
    watched = await p50(questions, query([]));
  } finally {
    watch.child.kill("SIGTERM");
    await new Promise((resolve) => watch.child.once("exit", resolve));
  }

  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", "--no-watch", "--no-refresh", "--db", db],
      cwd: root,
      env: env as Record<string, string>,
      stderr: "ignore",
    }),
  );
  try {
    const server = await p50(questions, async (task) => {
      const result = (await client.callTool(
        { name: "get_context", arguments: { task, budget_tokens: BUDGET } },
        undefined,
        { timeout: 600_000 },
      )) as CallToolResult;
      if (result.isError) throw new Error(`get_context failed: ${JSON.stringify(result.content)}`);
    });
    return {
      files,
      generateSeconds,
      indexSeconds,
      refreshing,
      noRefresh,
      watched,
      watchMode: watch.mode,
      server,
    };
  } finally {
    await client.close();
  }
}

try {
  const small = await timeTree(SMALL);
  const big = await timeTree(BIG);
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const row = (name: string, a: string, b: string, ratio = "") =>
    console.log(`${name.padEnd(34)} ${a.padStart(12)} ${b.padStart(12)} ${ratio}`);
  row("files", String(small.files), String(big.files));
  row(
    "tree generated (s; 0 when cached)",
    small.generateSeconds.toFixed(1),
    big.generateSeconds.toFixed(1),
  );
  row("ctx index (s)", small.indexSeconds.toFixed(1), big.indexSeconds.toFixed(1));
  const target = (a: number, b: number) => `${(b / a).toFixed(2)}× (target ≤ 3×)`;
  row(
    "ctx query p50",
    ms(small.refreshing),
    ms(big.refreshing),
    target(small.refreshing, big.refreshing),
  );
  row(
    "ctx query --no-refresh p50",
    ms(small.noRefresh),
    ms(big.noRefresh),
    target(small.noRefresh, big.noRefresh),
  );
  row(
    `ctx query, ctx watch up (${small.watchMode}/${big.watchMode})`,
    ms(small.watched),
    ms(big.watched),
    target(small.watched, big.watched),
  );
  row(
    "MCP get_context, warm server p50",
    ms(small.server),
    ms(big.server),
    target(small.server, big.server),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
