import { spawnSync } from "node:child_process";
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_INDEXED_BYTES } from "../../src/ingest/read-source.js";
import { CLI } from "../helpers/run-cli.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

/**
 * Each command gets this long: a 1 MB identifier indexes in a few seconds (it
 * took over fifteen minutes when counting tokens was quadratic).
 */
const COMMAND_TIMEOUT_MS = 60_000;
/** Peak memory an index run may reach here; a 300 MB file once took 5.4 GB. */
const MAX_RSS_MB = 600;

const rssProbe = join(tempDir("ctx-rss-"), "report-rss.cjs");
writeFileSync(
  rssProbe,
  'process.on("exit", () => require("node:fs").writeSync(2, "\\npeak-rss-kb " + process.resourceUsage().maxRSS + "\\n"));\n',
);

interface IndexRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly rssMb: number;
}

function ctx(args: string[], cwd: string): IndexRun {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: "utf8",
    timeout: COMMAND_TIMEOUT_MS,
    killSignal: "SIGKILL",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: cwd,
      XDG_CONFIG_HOME: cwd,
      NODE_OPTIONS: `--require ${rssProbe}`,
    },
  });
  const rss = /peak-rss-kb (\d+)/.exec(result.stderr ?? "");
  return {
    code: result.status,
    stdout: result.stdout ?? "",
    stderr: result.stderr ?? "",
    rssMb: rss ? Number(rss[1]) / 1024 : Number.POSITIVE_INFINITY,
  };
}

interface Report {
  readonly changed: number;
  readonly unchanged: number;
  readonly chunks: number;
  readonly cutFiles: {
    root: string;
    files: { path: string; indexedBytes: number; size: number }[];
  }[];
}

function letters(length: number): string {
  const codes = new Uint8Array(length);
  let state = 9;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    codes[i] = 97 + ((state >>> 16) % 26);
  }
  return Buffer.from(codes).toString("latin1");
}

describe("files built to make indexing slow or large", () => {
  it("a 1 MB single-identifier file indexes in seconds, into chunks a query can serve", () => {
    const root = tempDir("ctx-identifier-");
    const identifier = letters(1024 * 1024);
    writeFiles(root, {
      "ctx.toml": "[hydration]\nmax_file_bytes = 2000000\n",
      "long.ts": `export const ${identifier} = 1;\n`,
      "small.ts": "export function ordinaryHelper(value: number) {\n  return value * 2;\n}\n",
    });
    const run = ctx(["index", "--json", "--embedder", "none"], root);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    // A chunk holds at most 800 tokens, about 1,700 of these letters.
    expect(report.chunks).toBeGreaterThan(500);
    expect(report.cutFiles).toEqual([]);
    expect(run.rssMb).toBeLessThan(MAX_RSS_MB);
    const query = ctx(["query", "ordinaryHelper", "--no-refresh", "--budget", "2000"], root);
    expect(query.code, query.stderr).toBe(0);
    expect(query.stdout).toContain("ordinaryHelper");
  }, 120_000);

  it("a file past the most one file may give is indexed for its first part, said so, in bounded memory", () => {
    const root = tempDir("ctx-huge-");
    const size = MAX_INDEXED_BYTES + 4 * 1024 * 1024;
    writeFiles(root, {
      "ctx.toml": `[hydration]\nmax_file_bytes = ${size + 1000}\n`,
      // Blanks past the first line: cheap to chunk, so the test pays for reading, not for chunks.
      "huge.txt": `findable opening words\n${" ".repeat(size - 64)}\nclosing words past the cut\n`,
    });
    const run = ctx(["index", "--embedder", "none"], root);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "Indexed in part, too large to index whole: huge.txt (the first 32.0 MB of 36.0 MB)",
    );
    expect(run.rssMb).toBeLessThan(MAX_RSS_MB);
    const found = ctx(["search", "--no-refresh", "findable", "opening"], root);
    expect(found.stdout).toContain("huge.txt");
    const past = ctx(["search", "--no-refresh", "closing"], root);
    expect(past.stdout).not.toContain("huge.txt");

    // Read again, unchanged past the cut too, it is unchanged: the whole file is its identity.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, "huge.txt"), later, later);
    const again = ctx(["index", "--json", "--embedder", "none"], root);
    const report = JSON.parse(again.stdout) as Report;
    expect([report.unchanged, report.changed]).toEqual([2, 0]);
    expect(report.cutFiles).toEqual([]);
  }, 120_000);
});
