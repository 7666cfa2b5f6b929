/**
 * The code graph's work counted in instructions rather than timed: wall and
 * CPU time on this machine move by 10–20 % between sittings, so five timed
 * pairs cannot tell a change of a few points apart. valgrind's cachegrind
 * counts the instructions of one index run in one thread with V8's
 * background threads off (`node --single-threaded`), which moves by up to
 * 2 % between runs (timers still steer some of V8's and our own work). Runs
 * only where valgrind is installed.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL("./index-one-thread.mjs", import.meta.url));

export interface GraphInstructions {
  /** Instructions of starting node and ctx and indexing nothing. */
  readonly startup: number;
  readonly without: number;
  readonly withGraph: number;
}

async function valgrindInstalled(): Promise<boolean> {
  try {
    await run("valgrind", ["--version"]);
    return true;
  } catch {
    return false;
  }
}

async function counted(tree: string, db: string, graph: boolean): Promise<number> {
  const { stderr } = await run(
    "valgrind",
    [
      "--tool=cachegrind",
      "--cache-sim=no",
      "--cachegrind-out-file=/dev/null",
      process.execPath,
      "--single-threaded",
      SCRIPT,
      tree,
      db,
      String(graph),
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr)?.[1];
  if (!refs) throw new Error(`valgrind printed no instruction count:\n${stderr.slice(-2000)}`);
  return Number(refs.replaceAll(",", ""));
}

/** Counts indexing `source` (a copy of it) with and without the graph, and an empty tree; null without valgrind. */
export async function graphInstructions(
  source: string,
  work: string,
): Promise<GraphInstructions | null> {
  if (!(await valgrindInstalled())) return null;
  const trees = ["empty", "without", "with"].map((name) => join(work, `counted-${name}`));
  const [empty, bare, full] = trees as [string, string, string];
  mkdirSync(empty, { recursive: true });
  writeFileSync(join(empty, "README.md"), "nothing to index\n");
  cpSync(source, bare, { recursive: true });
  cpSync(source, full, { recursive: true });
  const [startup, without, withGraph] = await Promise.all([
    counted(empty, join(work, "counted-empty.db"), true),
    counted(bare, join(work, "counted-without.db"), false),
    counted(full, join(work, "counted-with.db"), true),
  ]);
  return { startup, without, withGraph };
}
