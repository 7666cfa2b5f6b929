/**
 * Each speed trick that can be switched off, measured end to end with it on
 * and off, side by side in one run (docs/performance.md lists them all):
 *
 * - the parser shortcuts (CTX_PARSER_SHORTCUTS=0 switches them off): `ctx
 *   index` of three.js in one thread, a fresh index each round;
 * - the pruned keyword search (the store's `pruneSearch`) and the split search
 *   (`searchThreads`, from 1 chunk on): the code-dev questions' keyword
 *   searches on that index, each question in turn on every variant.
 *
 * `CTX_BENCH_TRICK_ROUNDS` (default 3) sets the rounds.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { queryTerms, SqliteStore } from "../dist/index.js";
import { threeJsCorpus } from "./corpus.js";
import { percentile } from "./percentile.js";

const ROUNDS = Number(process.env.CTX_BENCH_TRICK_ROUNDS ?? 3);
const CLI = new URL("../dist/cli/main.js", import.meta.url).pathname;

const corpus = threeJsCorpus();
const work = mkdtempSync(join(tmpdir(), "ctx-bench-tricks-"));
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;

/** Wall time of one `ctx index` of three.js in one thread into a fresh index. */
function indexSeconds(label: string, round: number, env: Record<string, string>): number {
  const home = join(work, `${label}-${round}`);
  mkdirSync(join(home, "ctx"), { recursive: true });
  writeFileSync(join(home, "ctx", "config.toml"), "[index]\nworkers = 0\n");
  const started = performance.now();
  const run = spawnSync(process.execPath, [CLI, "index", corpus, "--db", join(home, "index.db")], {
    env: { ...process.env, XDG_CONFIG_HOME: home, ...env },
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`ctx index failed: ${run.stderr}`);
  return (performance.now() - started) / 1000;
}

try {
  const on: number[] = [];
  const off: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    on.push(indexSeconds("shortcuts", round, {}));
    off.push(indexSeconds("plain", round, { CTX_PARSER_SHORTCUTS: "0" }));
  }
  const [indexOn, indexOff] = [percentile(sorted(on), 0.5), percentile(sorted(off), 0.5)];

  const db = join(work, "shortcuts-0", "index.db");
  const questions = JSON.parse(
    readFileSync(new URL("./code-questions.json", import.meta.url), "utf8"),
  ) as string[];
  const variants = {
    "pruned, one thread (default below 30,000 chunks)": { pruneSearch: true, searchThreads: 1 },
    "every match scored, one thread": { pruneSearch: false, searchThreads: 1 },
    "pruned, split over 2 threads": { pruneSearch: true, searchThreads: 2, splitSearchFrom: 1 },
  };
  const stores = Object.entries(variants).map(([name, options]) => ({
    name,
    store: SqliteStore.open(db, { create: false, ...options }),
    times: [] as number[],
  }));
  const searches = questions
    .map((question) => queryTerms(question))
    .filter((terms) => terms.length > 0)
    .map((terms) => ({ terms, limit: 40 }));
  for (let round = 0; round <= ROUNDS; round++) {
    for (const query of searches) {
      for (const variant of stores) {
        const started = performance.now();
        await variant.store.documents.searchText(query);
        // The first round warms statements and threads.
        if (round > 0) variant.times.push(performance.now() - started);
      }
    }
  }
  for (const { store } of stores) await store.close();

  console.log(`three.js (${corpus}), ${ROUNDS} rounds, p50`);
  console.log(
    `  ctx index, one thread: parser shortcuts on ${indexOn.toFixed(2)} s, off ${indexOff.toFixed(2)} s (${(indexOff / indexOn).toFixed(2)}× with them off)`,
  );
  const base = percentile(sorted(stores[0]?.times ?? []), 0.5);
  console.log(`  keyword search, ${searches.length} code-dev questions:`);
  for (const { name, times } of stores) {
    const p50 = percentile(sorted(times), 0.5);
    const p99 = percentile(sorted(times), 0.99);
    console.log(`    ${name}: p50 ${ms(p50)} (${(p50 / base).toFixed(2)}×), p99 ${ms(p99)}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
