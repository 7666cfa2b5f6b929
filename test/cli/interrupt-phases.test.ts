import { spawn } from "node:child_process";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Repo } from "../helpers/git-history.js";
import { LlmServer } from "../helpers/llm-server.js";
import { CLI, type CliResult, cliEnv, runCliAsync } from "../helpers/run-cli.js";
import { writeFiles } from "../helpers/temp-dir.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: LlmServer;
beforeAll(async () => {
  server = await LlmServer.start();
});
afterAll(async () => {
  await server.close();
});

/**
 * `ctx index --verbose` in a process group of its own, as a shell runs it: the
 * signal goes to the whole group, git included, as a terminal's Ctrl-C does.
 */
function startIndex(root: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [CLI, "index", "--verbose", ...args], {
    cwd: root,
    env: cliEnv(root, env),
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (data: Buffer) => {
    stdout += data.toString();
  });
  child.stderr.on("data", (data: Buffer) => {
    stderr += data.toString();
  });
  const result = new Promise<CliResult>((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
  return {
    result,
    /** Resolves once stderr shows `line` and `ready` holds (polled); rejects if the run ended first. */
    async waitFor(line: string, ready: () => boolean = () => true): Promise<void> {
      let ended = false;
      void result.then(() => {
        ended = true;
      });
      while (!(stderr.includes(line) && ready())) {
        if (ended) throw new Error(`the run ended before "${line}":\n${stderr}`);
        await sleep(10);
      }
    },
    signalGroup(signal: NodeJS.Signals): void {
      process.kill(-(child.pid as number), signal);
    },
  };
}

/** One line saying the run was interrupted, and nothing else after the phase lines: no stack. */
function expectOneLineStop(stopped: CliResult, code: number, signal: string): void {
  expect(stopped.code, stopped.stderr).toBe(code);
  const lines = stopped.stderr.split("\n").filter((line) => line && !isPhaseLine(line));
  expect(lines, stopped.stderr).toHaveLength(1);
  expect(lines[0]).toContain(`ctx: interrupted (${signal})`);
  expect(stopped.stderr).not.toMatch(/AbortError|^\s+at /m);
}

function isPhaseLine(line: string): boolean {
  return /^ctx: (indexing|reading the git history of|writing contexts|embedding) .*\(\d+ \w+\)$/.test(
    line,
  );
}

function count(file: string, sql: string): number {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare(sql).get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0; // not made yet, or locked for a moment
  }
}

function sourceFiles(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let n = 0; n < count; n++) {
    files[`src/part${n}.py`] = [0, 1, 2]
      .map(
        (k) =>
          `def step${n}_${k}(value):\n    """Step ${k} of part ${n}."""\n    return value + ${k}\n`,
      )
      .join("\n");
  }
  return files;
}

describe("Ctrl-C while ctx index reads and chunks files", () => {
  it("stops with one line and exit 130, and the next run reads only the files not written", async () => {
    const repo = new Repo();
    writeFiles(repo.root, sourceFiles(3000));
    const index = join(repo.root, ".ctx", "index.db");
    const run = startIndex(repo.root, ["."]);
    await run.waitFor(
      "ctx: indexing",
      () => count(index, "SELECT count(*) AS n FROM documents") > 0,
    );
    run.signalGroup("SIGINT");
    expectOneLineStop(await run.result, 130, "SIGINT");

    const next = await runCliAsync(["index", ".", "--json"], repo.root);
    expect(next.code, next.stderr).toBe(0);
    const report = JSON.parse(next.stdout) as { added: number; changed: number; unchanged: number };
    expect(report.changed).toBe(0);
    expect(report.unchanged).toBeGreaterThan(0);
    expect(report.added + report.unchanged).toBe(3000);
  }, 90_000);
});

describe("Ctrl-C while ctx index reads the git history", () => {
  it("stops with one line and exit 130, git included, and the next run reads only the rest", async () => {
    const repo = new Repo();
    repo.commit("start", { "a.ts": "export const a = 1;\n" });
    repo.fastImport(2999);
    repo.git("reset", "--quiet", "--hard");
    const index = join(repo.root, ".ctx", "index.db");
    const run = startIndex(repo.root, ["."]);
    await run.waitFor(
      "ctx: reading the git history of",
      () => count(index, "SELECT count(*) AS n FROM history_commits") > 0,
    );
    run.signalGroup("SIGINT");
    const stopped = await run.result;
    expectOneLineStop(stopped, 130, "SIGINT");
    const kept = count(index, "SELECT count(*) AS n FROM history_commits");
    expect(kept).toBeGreaterThan(0);

    const next = await runCliAsync(["index", ".", "--json"], repo.root);
    expect(next.code, next.stderr).toBe(0);
    const [history] = (
      JSON.parse(next.stdout) as { history: { added: number; commits: number; error: null }[] }
    ).history;
    expect(history).toMatchObject({ commits: 3000, error: null });
    expect(history?.added).toBe(3000 - kept);
  }, 90_000);
});

describe("Ctrl-C while ctx index writes contexts with a model", () => {
  it("stops with one line and exit 130, and the next run asks the model only for the rest", async () => {
    const repo = new Repo();
    writeFiles(repo.root, {
      ...sourceFiles(40),
      "ctx.toml": "[contextualize]\nconcurrency = 1\nbatch_size = 3\n",
    });
    const env = { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: `${server.url}/v1` };
    server.delayMs = 100;
    const before = server.modelRequests.length;
    const run = startIndex(repo.root, ["--contextualize", "openai-compatible"], env);
    await run.waitFor("ctx: writing contexts", () => server.modelRequests.length >= before + 3);
    run.signalGroup("SIGINT");
    const stopped = await run.result;
    server.delayMs = 0;
    expectOneLineStop(stopped, 130, "SIGINT");

    const next = await runCliAsync(
      ["index", "--contextualize", "openai-compatible", "--json"],
      repo.root,
      env,
    );
    expect(next.code, next.stderr).toBe(0);
    const { report } = (
      JSON.parse(next.stdout) as {
        contexts: { report: { pending: number; generated: number; failed: number } };
      }
    ).contexts;
    // 40 files of three functions: the contexts written before the stop are not asked for again.
    expect(report.failed).toBe(0);
    expect(report.generated).toBeGreaterThan(0);
    expect(report.pending).toBeLessThan(120);
  }, 90_000);
});

describe("SIGTERM while ctx index embeds", () => {
  it("stops with one line and exit 143, and the next run embeds only the rest", async () => {
    const repo = new Repo();
    writeFiles(repo.root, {
      ...sourceFiles(40),
      "ctx.toml": "[embeddings]\nbatch_size = 4\n",
    });
    const env = { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: `${server.url}/v1` };
    server.delayMs = 100;
    const embeddings = () =>
      server.requests.filter((request) => request.path.endsWith("/embeddings")).length;
    const before = embeddings();
    const run = startIndex(repo.root, ["--embedder", "openai-compatible"], env);
    await run.waitFor("ctx: embedding", () => embeddings() >= before + 3);
    run.signalGroup("SIGTERM");
    const stopped = await run.result;
    server.delayMs = 0;
    expectOneLineStop(stopped, 143, "SIGTERM");

    const next = await runCliAsync(
      ["index", "--embedder", "openai-compatible", "--json"],
      repo.root,
      env,
    );
    expect(next.code, next.stderr).toBe(0);
    const { report } = (
      JSON.parse(next.stdout) as {
        embeddings: {
          report: { embedded: number; coverage: { embedded: number; total: number } };
        };
      }
    ).embeddings;
    expect(report.coverage.embedded).toBe(report.coverage.total);
    expect(report.embedded).toBeGreaterThan(0);
    expect(report.embedded).toBeLessThan(report.coverage.total);
  }, 90_000);
});
