/**
 * `ctx eval`'s figures on the code questions with each language's questions
 * ranked by the model trained without them (bench/ranker/folds/code-dev-*.json,
 * written by `npm run train-ranker`), beside the shipped model's; the index as
 * `ctx eval` builds it by default (structural contexts).
 *
 *   npx tsx bench/ranker/code-dev-held-out.ts ../shared/eval/code-dev
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../src/config/load-config.js";
import { guessLanguage } from "../../src/contextualize/guess-language.js";
import { StructuralContextGenerator } from "../../src/contextualize/structural-generator.js";
import type { ContextFragment } from "../../src/core/fragment.js";
import { readBeirDataset } from "../../src/eval/beir.js";
import { corpusFiles, UnitLocator } from "../../src/eval/corpus-files.js";
import { ndcgAtK, passAtK } from "../../src/eval/metrics.js";
import { pipelineRanker } from "../../src/eval/pipeline-ranker.js";
import { runEval } from "../../src/eval/run-eval.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { createTokenCounter } from "../../src/tokens/create-counter.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const LANGUAGES = ["rust", "python", "cpp", "java"] as const;
const MEASURES = ["Pass@5", "Pass@10", "Pass@20", "nDCG@10"] as const;
type Figures = Record<string, Record<(typeof MEASURES)[number], number> & { queries: number }>;

const dir = process.argv[2] ?? "../shared/eval/code-dev";

if (process.env.CODE_DEV_CHILD === "1") {
  process.stdout.write(JSON.stringify(await figuresByLanguage(dir)));
} else {
  const run = (model: string | null): Figures =>
    JSON.parse(
      execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), dir], {
        env: {
          ...process.env,
          CODE_DEV_CHILD: "1",
          ...(model ? { CTX_RANKING_MODEL: model } : {}),
        },
        encoding: "utf8",
        maxBuffer: 1 << 24,
      }),
    ) as Figures;
  const shipped = run(null);
  const rows = [
    "| language | queries | measure | shipped model | trained without it |",
    "|---|---:|---|---:|---:|",
  ];
  const total = { shipped: new Map<string, number>(), held: new Map<string, number>(), queries: 0 };
  for (const language of LANGUAGES) {
    const fold = join(HERE, "folds", `code-dev-${language}.json`);
    if (!existsSync(fold)) throw new Error(`no fold model ${fold}: run npm run train-ranker`);
    const held = run(fold)[language];
    const mine = shipped[language];
    if (!held || !mine) continue;
    total.queries += held.queries;
    for (const measure of MEASURES) {
      rows.push(
        `| ${language} | ${held.queries} | ${measure} | ${mine[measure].toFixed(2)} | ${held[measure].toFixed(2)} |`,
      );
      for (const [sums, figures] of [
        [total.shipped, mine],
        [total.held, held],
      ] as const)
        sums.set(measure, (sums.get(measure) ?? 0) + figures[measure] * figures.queries);
    }
  }
  for (const measure of MEASURES) {
    const mean = (sums: Map<string, number>) =>
      ((sums.get(measure) ?? 0) / total.queries).toFixed(2);
    rows.push(
      `| all | ${total.queries} | ${measure} | ${mean(total.shipped)} | ${mean(total.held)} |`,
    );
  }
  console.log(rows.join("\n"));
}

/** Per language of the questions' documents: mean figures (percent) under the active model. */
async function figuresByLanguage(folder: string): Promise<Figures> {
  const root = process.cwd();
  const config = await loadConfig(root);
  const counter = createTokenCounter(config.tokens.counter);
  const pipeline = await pipelineRanker({
    config,
    strategies: config.strategies.enabled,
    counter,
    projectRoot: root,
  });
  const dataset = await readBeirDataset(folder);
  const byText = new Map<string, ContextFragment[]>();
  await runEval(dataset, {
    label: "held-out",
    ks: [5, 10, 20],
    counter,
    openStore: (file) => SqliteStore.open(file, { create: true }),
    contextualize: new StructuralContextGenerator(counter),
    rank: async (store, query, depth) => {
      const fragments = await pipeline(store, query, depth);
      byText.set(query, fragments);
      return fragments;
    },
  });
  const locator = new UnitLocator(corpusFiles(dataset));
  const docOf = new Map(dataset.corpus.map((unit) => [unit.id, unit.docId ?? unit.id]));
  // Documents come in repository order, one main language each (see collect-code-dev.ts).
  const languageOf = new Map<string, string>();
  let current = "unknown";
  for (const [id, text] of dataset.documents) {
    const language = guessLanguage(text)?.language ?? "";
    if ((LANGUAGES as readonly string[]).includes(language)) current = language;
    languageOf.set(id, current);
  }
  const sums: Figures = {};
  for (const query of dataset.queries) {
    const relevant = dataset.qrels.get(query.id);
    const fragments = byText.get(query.text);
    if (!relevant || relevant.size === 0 || !fragments) continue;
    const language = languageOf.get(docOf.get([...relevant.keys()][0] ?? "") ?? "") ?? "unknown";
    const ranked = [...new Set(fragments.flatMap((fragment) => locator.unitsOf(fragment)))];
    const figures = sums[language] ?? {
      queries: 0,
      "Pass@5": 0,
      "Pass@10": 0,
      "Pass@20": 0,
      "nDCG@10": 0,
    };
    sums[language] = figures;
    figures.queries++;
    figures["Pass@5"] += passAtK(ranked, relevant, 5);
    figures["Pass@10"] += passAtK(ranked, relevant, 10);
    figures["Pass@20"] += passAtK(ranked, relevant, 20);
    figures["nDCG@10"] += ndcgAtK(ranked, relevant, 10);
  }
  for (const figures of Object.values(sums))
    for (const measure of MEASURES) figures[measure] = (100 * figures[measure]) / figures.queries;
  return sums;
}
