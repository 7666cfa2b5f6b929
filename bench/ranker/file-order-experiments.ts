/**
 * What limits the order of files in an answer: the ranking refitted on the rows
 * of all fourteen commit repositories and the swe-dev issues (data/more/), each
 * repository left out in turn, with extra features built from the rows alone,
 * and Acc@1/3/5/10 read off each held-out query's files ordered by their best
 * fragment (a changed file missing from the rows, that is from the 32k answer,
 * is a miss, as swe_rank.py counts it). See README.md ("The order of files is
 * limited by the signals").
 *
 *   npx tsx bench/ranker/file-order-experiments.ts ../shared/commit-bench ../shared/swe-dev
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { RANK_FEATURES, type RankFeature } from "../../src/core/rank-signals.js";
import { TRAINED_RANKING_MODEL } from "../../src/rank/ranking-weights.js";
import { DEFAULT_FIT, dot, fitPairwise, type TrainingQuery } from "./pairwise-logistic.js";
import { type RankingRow, readRows } from "./ranking-rows.js";
import { SET_WEIGHTS } from "./set-weights.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const KS = [1, 3, 5, 10] as const;
/** Set, not learned, as train-ranker holds them. */
const FIXED = SET_WEIGHTS;
const LEARNED = RANK_FEATURES.filter((name) => !(name in FIXED));
const SHIPPED = TRAINED_RANKING_MODEL.weights;
/** The features a file's best value of is added (per fragment, the same for all of a file's). */
const PER_FILE: readonly RankFeature[] = [
  "keyword",
  "graph",
  "coChange",
  "message",
  "recentChanges",
  "pathWords",
];

interface Candidate {
  readonly row: RankingRow;
  readonly file: string;
  readonly shipped: number;
}

interface Query {
  readonly group: string;
  readonly gold: ReadonlySet<string>;
  readonly candidates: readonly Candidate[];
}

type Extra = (query: Query) => number[][];

const benchDirs = process.argv.slice(2);
if (benchDirs.length === 0) {
  process.stderr.write(
    "usage: file-order-experiments.ts BENCH_DIR... (../shared/commit-bench ../shared/swe-dev)\n",
  );
  process.exit(2);
}
const queries = await loadQueries();
const groups = [...new Set(queries.map((query) => query.group))].sort();

const variants: [string, Extra | null][] = [
  ["refit on the same features", null],
  ["+ each file's most of six signals and its fragment count", perFileMost],
  ["+ a companion of the first file (same stem, same folder)", companion],
];
process.stdout.write(
  "| ranking (Acc@1 / 3 / 5 / 10) | commit benchmark | swe-dev |\n|---|---|---|\n",
);
process.stdout.write(`| shipped weights | ${figures(shippedOrder).join(" | ")} |\n`);
for (const [name, extra] of variants) {
  const held = heldOut(extra, false);
  process.stdout.write(`| ${name} | ${figures((query) => held.get(query) ?? []).join(" | ")} |\n`);
}
// Trained on pairs of files (each file's best fragment by the shipped weights, gold or not).
const byFile = heldOut(null, true);
process.stdout.write(
  `| trained on each file's best fragment only | ${figures((query) => byFile.get(query) ?? []).join(" | ")} |\n`,
);

/** Each query's scores by the model trained without its repository. */
function heldOut(extra: Extra | null, filesOnly: boolean): Map<Query, number[]> {
  const held = new Map<Query, number[]>();
  for (const group of groups) {
    const training = queries.filter((query) => query.group !== group);
    const weights = heldOutFit(training, extra, filesOnly);
    for (const query of queries.filter((q) => q.group === group))
      held.set(query, scores(query, extra, weights));
  }
  return held;
}

async function loadQueries(): Promise<Query[]> {
  const gold = new Map<string, Set<string>>();
  for (const dir of benchDirs) {
    for (const name of readdirSync(dir).filter((file) => file.endsWith(".jsonl"))) {
      const text = readFileSync(join(dir, name), "utf8");
      for (const line of text.split("\n").filter((l) => l.trim())) {
        const task = JSON.parse(line) as { sha: string; gold_files: string[] };
        gold.set(`${basename(name, ".jsonl")}/${task.sha}`, new Set(task.gold_files));
      }
    }
  }
  const rows = (
    await Promise.all(
      ["commit-bench.jsonl.gz", "swe-dev.jsonl.gz"].map((f) =>
        readRows(join(HERE, "data", "more", f)),
      ),
    )
  ).flat();
  const byQuery = new Map<string, RankingRow[]>();
  for (const row of rows) {
    const list = byQuery.get(row.query);
    if (list) list.push(row);
    else byQuery.set(row.query, [row]);
  }
  const out: Query[] = [];
  for (const [id, list] of [...byQuery].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const goldFiles = gold.get(id);
    if (!goldFiles) throw new Error(`no task ${id} in ${benchDirs.join(", ")}`);
    out.push({
      group: list[0]?.group ?? "",
      gold: goldFiles,
      candidates: list.map((row) => ({
        row,
        file: row.item.replace(/#L\d+-L\d+$/, ""),
        shipped: RANK_FEATURES.reduce(
          (sum, name) => sum + SHIPPED[name] * (row.features[name] ?? 0),
          0,
        ),
      })),
    });
  }
  return out;
}

function base(candidate: Candidate): number[] {
  return LEARNED.map((name) => candidate.row.features[name] ?? 0);
}

function offset(candidate: Candidate): number {
  return RANK_FEATURES.reduce(
    (sum, name) => sum + (FIXED[name] ?? 0) * (candidate.row.features[name] ?? 0),
    0,
  );
}

function vectors(query: Query, extra: Extra | null): number[][] {
  const more = extra?.(query);
  return query.candidates.map((candidate, i) => [...base(candidate), ...(more?.[i] ?? [])]);
}

function heldOutFit(train: readonly Query[], extra: Extra | null, filesOnly: boolean): number[] {
  const perSet = new Map<string, number>();
  for (const query of train) {
    const set = query.group.split("/")[0] ?? "";
    perSet.set(set, (perSet.get(set) ?? 0) + 1);
  }
  const data: TrainingQuery[] = train.map((query) => {
    const x = vectors(query, extra);
    const weight = 1 / (perSet.get(query.group.split("/")[0] ?? "") ?? 1);
    if (!filesOnly)
      return {
        weight,
        items: query.candidates.map((c, i) => ({
          x: x[i] ?? [],
          gain: c.row.gain,
          offset: offset(c),
        })),
      };
    const best = new Map<string, number>();
    query.candidates.forEach((c, i) => {
      const at = best.get(c.file);
      if (at === undefined || c.shipped > (query.candidates[at]?.shipped ?? 0)) best.set(c.file, i);
    });
    return {
      weight,
      items: [...best].map(([file, i]) => ({
        x: x[i] ?? [],
        gain: query.gold.has(file) ? 1 : 0,
        offset: offset(query.candidates[i] as Candidate),
      })),
    };
  });
  return fitPairwise(data, (vectors(train[0] as Query, extra)[0] ?? []).length, {
    ...DEFAULT_FIT,
    topWeighted: false,
  });
}

function scores(query: Query, extra: Extra | null, weights: readonly number[]): number[] {
  const x = vectors(query, extra);
  return query.candidates.map((c, i) => dot(weights, x[i] ?? []) + offset(c));
}

function shippedOrder(query: Query): number[] {
  return query.candidates.map((c) => c.shipped);
}

/** Acc@k by data set, "a / b / c / d". */
function figures(scoreOf: (query: Query) => readonly number[]): string[] {
  const sets = ["commit-bench", "swe-dev"];
  return sets.map((set) => {
    const inSet = queries.filter((query) => query.group.startsWith(`${set}/`));
    const hits = KS.map(() => 0);
    for (const query of inSet) {
      const order = fileOrder(query, scoreOf(query));
      KS.forEach((k, i) => {
        if ([...query.gold].every((file) => order.slice(0, k).includes(file)))
          hits[i] = (hits[i] ?? 0) + 1;
      });
    }
    return hits.map((hit) => ((100 * hit) / Math.max(1, inSet.length)).toFixed(1)).join(" / ");
  });
}

function fileOrder(query: Query, score: readonly number[]): string[] {
  const best = new Map<string, number>();
  query.candidates.forEach((c, i) => {
    const value = score[i] ?? 0;
    if (value > (best.get(c.file) ?? Number.NEGATIVE_INFINITY)) best.set(c.file, value);
  });
  return [...best].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([file]) => file);
}

function perFileMost(query: Query): number[][] {
  const most = new Map<string, number[]>();
  const count = new Map<string, number>();
  for (const c of query.candidates) {
    const values = PER_FILE.map((name) => c.row.features[name] ?? 0);
    const seen = most.get(c.file);
    most.set(c.file, seen ? seen.map((v, i) => Math.max(v, values[i] ?? 0)) : values);
    count.set(c.file, (count.get(c.file) ?? 0) + 1);
  }
  return query.candidates.map((c) => [
    ...(most.get(c.file) ?? []),
    Math.log2(1 + (count.get(c.file) ?? 0)) / 4,
  ]);
}

/** 1 for a file named as the shipped order's first file up to its first dot, in its folder. */
function companion(query: Query): number[][] {
  const first = fileOrder(query, shippedOrder(query))[0] ?? "";
  const stem = (path: string) => (basename(path).split(".")[0] ?? "").toLowerCase();
  return query.candidates.map((c) => [
    c.file !== first && dirname(c.file) === dirname(first) && stem(c.file) === stem(first) ? 1 : 0,
  ]);
}
