/**
 * The code graph's work counted in instructions rather than timed: wall and
 * CPU time on this machine move by 10–20 % between sittings, so five timed
 * pairs cannot tell a change of a few points apart. valgrind's cachegrind
 * counts the instructions of one index run in one thread with V8's
 * background threads off (`node --single-threaded`). A count still moves by
 * 2–3 % between runs (timers steer some of V8's and our own work), and the
 * share of one pair by three points either way, so three pairs are counted and
 * the median share is the figure. Runs only where valgrind is installed.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL("./index-one-thread.mjs", import.meta.url));

/** Pairs counted; the median pair's share is reported. */
const PAIRS = 3;

export interface GraphInstructions {
  /** Instructions of starting node and ctx and indexing nothing. */
  readonly startup: number;
  /** One count per pair, in the order counted. */
  readonly without: readonly number[];
  readonly withGraph: readonly number[];
}

/** The graph's share of the indexing (start-up left out) in each pair, in percent. */
export function pairShares(counted: GraphInstructions): number[] {
  return counted.withGraph.map((withGraph, pair) => {
    const without = counted.without[pair] as number;
    return (100 * (withGraph - without)) / (without - counted.startup);
  });
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

/** Counts indexing `source` (a copy of it) with and without the graph, three times, and an empty tree once; null without valgrind. */
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
  const startup = await counted(empty, join(work, "counted-empty.db"), true);
  const without: number[] = [];
  const withGraph: number[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    // Side by side, one per core: both see the same load.
    const [bareCount, fullCount] = await Promise.all([
      counted(bare, join(work, `counted-without-${pair}.db`), false),
      counted(full, join(work, `counted-with-${pair}.db`), true),
    ]);
    without.push(bareCount);
    withGraph.push(fullCount);
  }
  return { startup, without, withGraph };
}
