/**
 * Files built to make indexing slow or large: a 1 MB identifier (one BPE piece
 * a million letters long), lines that each start with a character outside
 * ASCII, and a 300 MB file with the size limit raised to take it.
 * Prints o200k's count time per size with the ratio of time per character (1
 * for linear counting; it was 80k chars in 6.5 s, a million over 15 minutes),
 * the time `ctx index` takes on the 1 MB identifier, and the wall time, exit
 * code and peak RSS of `ctx index` on the 300 MB file (target: under 1 GB; it
 * was 5.4 GB and `Aborted()`). Runs the built CLI in child processes; about a
 * minute in all, most of it writing and indexing the 300 MB file
 * (CTX_BENCH_HUGE_MB=40 for a quick run that still passes the 32 MiB cut).
 */
import { spawnSync } from "node:child_process";
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { o200kCounter } from "../dist/tokens/o200k-counter.js";

const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const MB = 1024 * 1024;
/** Size of the big file; CTX_BENCH_HUGE_MB sets a smaller one for a quick run. */
const HUGE_MB = Number(process.env.CTX_BENCH_HUGE_MB ?? 300);

/** Deterministic lower-case letters: no piece of o200k's vocabulary runs long in them. */
function identifier(length: number, seed = 1): string {
  const codes = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    codes[i] = 97 + ((state >>> 16) % 26);
  }
  return Buffer.from(codes).toString("latin1");
}

function countMs(text: string): number {
  const started = performance.now();
  o200kCounter.count(text);
  return performance.now() - started;
}

interface CliRun {
  readonly code: number | null;
  readonly seconds: number;
  readonly rssMb: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `ctx index --json` in `root`, with its peak RSS (all threads) as the child reports it at exit. */
function indexIn(root: string, probe: string): CliRun {
  const started = performance.now();
  const result = spawnSync(process.execPath, [CLI, "index", "--json", "--embedder", "none"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * MB,
    env: { ...process.env, XDG_CONFIG_HOME: root, NODE_OPTIONS: `--require ${probe}` },
  });
  const rss = /peak-rss-kb (\d+)/.exec(result.stderr ?? "");
  return {
    code: result.status,
    seconds: (performance.now() - started) / 1000,
    rssMb: rss ? Number(rss[1]) / 1024 : Number.NaN,
    stdout: result.stdout ?? "",
    stderr: (result.stderr ?? "").replace(/\n?peak-rss-kb \d+\n?/, "").trim(),
  };
}

/** A project holding one file, with `[hydration] max_file_bytes` raised to take it. */
function project(work: string, name: string, maxFileBytes: number): string {
  const root = join(work, name);
  mkdirSync(root);
  writeFileSync(join(root, "ctx.toml"), `[hydration]\nmax_file_bytes = ${maxFileBytes}\n`);
  return root;
}

/** Lines of ordinary code, a megabyte at a time, so the file is never held whole. */
function writeHugeFile(path: string, megabytes: number): void {
  const fd = openSync(path, "w");
  let state = 7;
  const next = (range: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % range;
  };
  try {
    for (let block = 0; block < megabytes; block++) {
      const lines: string[] = [];
      let length = 0;
      while (length < MB - 100) {
        const line = `const value${next(1e6)} = compute${next(100)}(alpha, beta) + ${next(1000)};\n`;
        lines.push(line);
        length += line.length;
      }
      writeSync(fd, `${lines.join("").padEnd(MB - 1, " ")}\n`);
    }
  } finally {
    closeSync(fd);
  }
}

function describeRun(run: CliRun): string {
  const failed = run.code === 0 ? "" : `; stderr: ${run.stderr.split("\n")[0]}`;
  return `${run.seconds.toFixed(1)} s, exit ${run.code}, peak RSS ${run.rssMb.toFixed(0)} MB${failed}`;
}

function cutOf(run: CliRun): string {
  try {
    const report = JSON.parse(run.stdout) as {
      chunks: number;
      cutFiles?: { files: { indexedBytes: number; size: number }[] }[];
    };
    const cut = report.cutFiles?.[0]?.files[0];
    const part = cut
      ? `, indexed ${(cut.indexedBytes / MB).toFixed(0)} of ${(cut.size / MB).toFixed(0)} MB`
      : "";
    return `${report.chunks} chunks${part}`;
  } catch {
    return "no report";
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "ctx-bench-hostile-"));
  const probe = join(work, "report-rss.cjs");
  writeFileSync(
    probe,
    'process.on("exit", () => require("node:fs").writeSync(2, "\\npeak-rss-kb " + process.resourceUsage().maxRSS + "\\n"));\n',
  );
  const print = ([name, value]: [string, string]) => console.log(`${name.padEnd(36)} ${value}`);
  try {
    // Loads the table and warms the merge outside the timings.
    o200kCounter.count(identifier(100_000, 3));
    const short = countMs(identifier(80_000));
    const long = countMs(identifier(1_000_000));
    print(["o200k, an 80k-char identifier", `${short.toFixed(0)} ms (was 6.5 s)`]);
    print([
      "o200k, a 1M-char identifier",
      `${long.toFixed(0)} ms; time per char ${(long / 1_000_000 / (short / 80_000)).toFixed(2)}× the 80k one's (1 = linear)`,
    ]);
    const wideShort = countMs("日 a b c\n".repeat(4_000));
    const wideLong = countMs("日 a b c\n".repeat(64_000));
    print([
      "o200k, lines led by CJK: 32k / 512k",
      `${wideShort.toFixed(0)} / ${wideLong.toFixed(0)} ms; time per char ${(wideLong / 16 / wideShort).toFixed(2)}×`,
    ]);

    const single = project(work, "identifier", 2 * MB);
    writeFileSync(join(single, "long.ts"), `export const ${identifier(MB)} = 1;\n`);
    const indexed = indexIn(single, probe);
    print(["ctx index, a 1 MB identifier", `${describeRun(indexed)}; ${cutOf(indexed)}`]);

    const huge = project(work, "huge", HUGE_MB * MB + 1);
    writeHugeFile(join(huge, "huge.ts"), HUGE_MB);
    const big = indexIn(huge, probe);
    print([
      `ctx index, a ${HUGE_MB} MB file`,
      `${describeRun(big)}; ${cutOf(big)} (target: RSS < 1 GB)`,
    ]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
