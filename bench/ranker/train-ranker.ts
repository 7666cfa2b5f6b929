/**
 * Trains the learned ranking's weights from the pinned rows in
 * bench/ranker/data/ (see README.md there) and writes them into
 * src/rank/ranking-weights.ts, plus one model per left-out repository into
 * bench/ranker/folds/. Prints, for every repository, the held-out figures of
 * the model trained without it beside the previous weights' and the
 * all-data model's (a training figure), on re-ranking the pinned candidates;
 * then the same with each whole data set left out (code questions, commits,
 * issues), and how many folds the held-out model wins.
 *
 *   npm run train-ranker            train, write, print
 *   npm run train-ranker -- --check  print only; exit 1 when the written weights differ
 *   npm run train-ranker -- --check --flat  the same with every pair weighed alike
 *   npm run train-ranker -- --more   train on the code questions, all fourteen commit
 *                                    repositories and the swe-dev issues (data/more/);
 *                                    the model and its folds go to bench/ranker/more/,
 *                                    the shipped weights stay as they are
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RankingModel } from "../../src/core/rank-signals.js";
import { RANK_FEATURES, type RankFeature } from "../../src/core/rank-signals.js";
import { TRAINED_RANKING_MODEL } from "../../src/rank/ranking-weights.js";
import {
  DEFAULT_FIT,
  dot,
  type FitOptions,
  fitBias,
  fitPairwise,
  type TrainingQuery,
} from "./pairwise-logistic.js";
import { type RankingRow, readRows } from "./ranking-rows.js";
import { SET_WEIGHTS } from "./set-weights.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const WEIGHTS_FILE = join(HERE, "..", "..", "src", "rank", "ranking-weights.ts");
const more = process.argv.includes("--more");
const DATA = (
  more
    ? ["code-dev.jsonl.gz", "more/commit-bench.jsonl.gz", "more/swe-dev.jsonl.gz"]
    : ["code-dev.jsonl.gz", "commit-bench.jsonl.gz"]
)
  .map((name) => join(HERE, "data", name))
  .filter((file) => existsSync(file));
const FOLDS = more ? join(HERE, "more") : join(HERE, "folds");
/** The set weights, and with `--hold` the shipped weights of the features named. */
const FIXED: Partial<Record<RankFeature, number>> = { ...SET_WEIGHTS };
/**
 * `--hold a,b`: those features keep the shipped weights and the rest are fitted
 * around them (what the user says outright, as a named file or an asked role,
 * should not count for less because the commits and issues rarely say it).
 */
const holdArgument = process.argv.find((argument) => argument.startsWith("--hold="));
for (const name of holdArgument?.slice("--hold=".length).split(",") ?? []) {
  if (!(RANK_FEATURES as readonly string[]).includes(name))
    throw new Error(`--hold: no feature "${name}"; features: ${RANK_FEATURES.join(", ")}`);
  FIXED[name as RankFeature] = TRAINED_RANKING_MODEL.weights[name as RankFeature];
}
const TRAINED = RANK_FEATURES.filter((name) => !(name in FIXED));

interface Query extends TrainingQuery {
  readonly items: readonly {
    readonly x: readonly number[];
    /** Every feature, in RANK_FEATURES order: what a whole model scores. */
    readonly all: readonly number[];
    readonly offset: number;
    readonly gain: number;
  }[];
  readonly group: string;
  readonly id: string;
  readonly total: number;
  readonly files: readonly string[];
}

const check = process.argv.includes("--check");
/** `--flat`: every pair by its gain gap alone (for comparison; the shipped weights are top-weighted). */
const fit: FitOptions = { ...DEFAULT_FIT, topWeighted: !process.argv.includes("--flat") };
const queries = groupRows((await Promise.all(DATA.map(readRows))).flat());
const groups = [...new Set(queries.map((query) => query.group))].sort();
const previous = TRAINED_RANKING_MODEL;
const all = train(queries);

const table: string[] = [
  "| held out | queries | measure | previous weights | trained without it | trained on all |",
  "|---|---:|---|---:|---:|---:|",
];
/** Per held-out fold and measure: the held-out model's figure over the previous weights'. */
const gains: number[] = [];
const heldOutRows = (
  label: string,
  heldOut: readonly Query[],
  fold: RankingModel,
  tally: boolean,
): void => {
  for (const [name, measure] of measuresFor(heldOut[0]?.group ?? "")) {
    const value = (model: RankingModel) => mean(heldOut.map((q) => measure(q, model)));
    if (tally) gains.push(value(fold) - value(previous));
    table.push(
      `| ${label} | ${heldOut.length} | ${name} | ${percent(value(previous))} | ${percent(value(fold))} | ${percent(value(all))} |`,
    );
  }
};
for (const group of groups) {
  const fold = train(queries.filter((query) => query.group !== group));
  if (!check) writeModel(join(FOLDS, `${group.replace("/", "-")}.json`), fold);
  heldOutRows(
    group,
    queries.filter((query) => query.group === group),
    fold,
    true,
  );
}
// A whole kind of task left out: does what the others teach carry over to it?
for (const set of [...new Set(groups.map(dataSetOf))]) {
  const fold = train(queries.filter((query) => dataSetOf(query.group) !== set));
  for (const group of groups.filter((name) => dataSetOf(name) === set))
    heldOutRows(
      `${group} (all of ${set} out)`,
      queries.filter((query) => query.group === group),
      fold,
      false,
    );
}
const won = gains.filter((gain) => gain > 0).length;
const lost = gains.filter((gain) => gain < 0).length;
table.push(
  "",
  `Left-one-repository-out against the previous weights: better on ${won}, worse on ${lost}, equal on ${gains.length - won - lost} of ${gains.length} (fold, measure) pairs; mean change ${(100 * mean(gains)).toFixed(2)} points.`,
);
process.stdout.write(`${table.join("\n")}\n\nWeights trained on all rows:\n`);
for (const name of RANK_FEATURES)
  process.stdout.write(`  ${name.padEnd(12)} ${all.weights[name].toFixed(4)}\n`);
process.stdout.write(`  ${"bias".padEnd(12)} ${all.bias.toFixed(4)}\n`);
const source = modelSource(all);
if (more) {
  if (!check) writeModel(join(FOLDS, "all.json"), all);
  process.stdout.write(`wrote the model and its folds to ${FOLDS}\n`);
  process.exit(0);
}
if (check) {
  const same = readFileSync(WEIGHTS_FILE, "utf8") === source;
  process.stdout.write(
    same
      ? "src/rank/ranking-weights.ts is up to date\n"
      : "src/rank/ranking-weights.ts differs from what the rows train\n",
  );
  process.exit(same ? 0 : 1);
}
writeFileSync(WEIGHTS_FILE, source);
process.stdout.write(`wrote ${WEIGHTS_FILE} and bench/ranker/folds/*.json\n`);

function train(rows: readonly Query[]): RankingModel {
  const fitted = fitPairwise(rows, TRAINED.length, fit);
  const weights = {} as Record<RankFeature, number>;
  for (const name of RANK_FEATURES) weights[name] = FIXED[name] ?? 0;
  TRAINED.forEach((name, i) => {
    weights[name] = round(fitted[i] ?? 0);
  });
  const vector = TRAINED.map((name) => weights[name]);
  return { bias: round(fitBias(rows, vector)), weights };
}

/**
 * Rows by query (a candidate listed twice, as rows collected under two models
 * list it, once), each data set weighing the same in all: the code questions
 * and the commits are two kinds of task, and neither should be ranked for at
 * the other's cost because it has more queries.
 */
function groupRows(rows: readonly RankingRow[]): Query[] {
  const byQuery = new Map<string, RankingRow[]>();
  const seen = new Set<string>();
  for (const row of rows) {
    const key = `${row.query}\0${row.item}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const list = byQuery.get(row.query);
    if (list) list.push(row);
    else byQuery.set(row.query, [row]);
  }
  const dataSet = dataSetOf;
  const perSet = new Map<string, number>();
  for (const list of byQuery.values()) {
    const set = dataSet(list[0]?.group ?? "");
    perSet.set(set, (perSet.get(set) ?? 0) + 1);
  }
  return [...byQuery.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, list]) => ({
      id,
      weight: 1 / (perSet.get(dataSet(list[0]?.group ?? "")) ?? 1),
      group: list[0]?.group ?? "",
      total: list[0]?.total ?? 0,
      files: list.map((row) => row.item.replace(/#L\d+-L\d+$/, "")),
      items: list.map((row) => ({
        x: TRAINED.map((name) => row.features[name] ?? 0),
        all: RANK_FEATURES.map((name) => row.features[name] ?? 0),
        offset: RANK_FEATURES.reduce(
          (sum, name) => sum + (FIXED[name] ?? 0) * (row.features[name] ?? 0),
          0,
        ),
        gain: row.gain,
      })),
    }));
}

function dataSetOf(group: string): string {
  return group.slice(0, group.indexOf("/"));
}

type Measure = (query: Query, model: RankingModel) => number;

/** Code questions: Pass@k over units; commits: changed files among the first k files, and nDCG@10 of the fragments' gains. */
function measuresFor(group: string): [string, Measure][] {
  if (group.startsWith("code-dev/"))
    return [
      ["Pass@5", (query, model) => passAt(query, model, 5)],
      ["Pass@10", (query, model) => passAt(query, model, 10)],
    ];
  const files: [string, Measure][] = [
    ["files@2", (query, model) => filesAt(query, model, 2)],
    ["files@5", (query, model) => filesAt(query, model, 5)],
    ["nDCG@10", (query, model) => ndcgAt(query, model, 10)],
  ];
  // Issues are judged as SWE-bench localisation is: every changed file among the first five.
  if (group.startsWith("swe-dev/"))
    files.push(["Acc@5", (query, model) => (filesAt(query, model, 5) >= 1 ? 1 : 0)]);
  return files;
}

function order(query: Query, model: RankingModel): number[] {
  const vector = RANK_FEATURES.map((name) => model.weights[name]);
  const scores = query.items.map((item) => dot(vector, item.all));
  // Ties keep the pinned order (the order the rows were answered in).
  return scores.map((_, i) => i).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
}

function passAt(query: Query, model: RankingModel, k: number): number {
  const top = order(query, model).slice(0, k);
  const found = top.filter((i) => (query.items[i]?.gain ?? 0) > 0).length;
  return query.total > 0 ? found / query.total : 0;
}

function filesAt(query: Query, model: RankingModel, k: number): number {
  const files: string[] = [];
  const gold = new Set<string>();
  for (const i of order(query, model)) {
    const file = query.files[i] ?? "";
    if (!files.includes(file)) files.push(file);
    if ((query.items[i]?.gain ?? 0) > 0 && files.indexOf(file) < k) gold.add(file);
  }
  return query.total > 0 ? gold.size / query.total : 0;
}

function ndcgAt(query: Query, model: RankingModel, k: number): number {
  const gains = order(query, model).map((i) => query.items[i]?.gain ?? 0);
  const ideal = [...gains].sort((a, b) => b - a);
  const dcg = (list: number[]) =>
    list.slice(0, k).reduce((sum, gain, i) => sum + gain / Math.log2(i + 2), 0);
  const best = dcg(ideal);
  return best > 0 ? dcg(gains) / best : 0;
}

function writeModel(file: string, model: RankingModel): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(model, null, 2)}\n`);
}

function modelSource(model: RankingModel): string {
  const lines = RANK_FEATURES.map((name) => `    ${name}: ${model.weights[name]},`);
  return `import type { RankingModel } from "../core/rank-signals.js";

/**
 * Written by \`npm run train-ranker\` from the rows pinned in bench/ranker/data/
 * (see bench/ranker/README.md): pairwise logistic regression over the code
 * questions and the commit benchmark. Do not edit by hand.
 */
export const TRAINED_RANKING_MODEL: RankingModel = {
  bias: ${model.bias},
  weights: {
${lines.join("\n")}
  },
};
`;
}

function mean(values: readonly number[]): number {
  return values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

function percent(value: number): string {
  return (100 * value).toFixed(1);
}

function round(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}
