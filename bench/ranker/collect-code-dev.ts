/**
 * Ranking rows of the code questions: for every judged question of
 * `../shared/eval/code-dev`, the default pipeline's candidates (top 40 units)
 * with their rank features and graded relevance. The repository of a question
 * (the group leave-one-out folds by) is that of its relevant units' document;
 * documents come in repository order, the four repositories one language each
 * (Rust, Python, C++, Java), so a document's repository is the last main
 * language seen up to it (LibAFL's C harnesses stay with LibAFL).
 *
 *   npx tsx bench/ranker/collect-code-dev.ts ../shared/eval/code-dev > rows.jsonl
 */
import { loadConfig } from "../../src/config/load-config.js";
import { guessLanguage } from "../../src/contextualize/guess-language.js";
import type { ContextFragment } from "../../src/core/fragment.js";
import { readBeirDataset } from "../../src/eval/beir.js";
import { corpusFiles, UnitLocator } from "../../src/eval/corpus-files.js";
import { pipelineRanker } from "../../src/eval/pipeline-ranker.js";
import { runEval } from "../../src/eval/run-eval.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { createTokenCounter } from "../../src/tokens/create-counter.js";
import type { RankingRow } from "./ranking-rows.js";

const ROWS_PER_QUERY = 40;

const dir = process.argv[2] ?? "../shared/eval/code-dev";
const root = process.cwd();
const config = await loadConfig(root);
const counter = createTokenCounter(config.tokens.counter);
const pipeline = await pipelineRanker({
  config,
  strategies: config.strategies.enabled,
  counter,
  projectRoot: root,
});
const dataset = await readBeirDataset(dir);
const byText = new Map<string, ContextFragment[]>();
await runEval(dataset, {
  label: "collect",
  ks: [5, 10, 20],
  counter,
  openStore: (file) => SqliteStore.open(file, { create: true }),
  rank: async (store, query, depth) => {
    const fragments = await pipeline(store, query, Math.max(depth, ROWS_PER_QUERY));
    byText.set(query, fragments);
    return fragments;
  },
});
const locator = new UnitLocator(corpusFiles(dataset));
const docOf = new Map(dataset.corpus.map((unit) => [unit.id, unit.docId ?? unit.id]));
const MAIN_LANGUAGES = new Set(["rust", "python", "cpp", "java"]);
const repositoryOf = new Map<string, string>();
let current = "unknown";
for (const [id, text] of dataset.documents) {
  const language = guessLanguage(text)?.language ?? "";
  if (MAIN_LANGUAGES.has(language)) current = language;
  repositoryOf.set(id, current);
}
for (const query of dataset.queries) {
  const relevant = dataset.qrels.get(query.id);
  const fragments = byText.get(query.text);
  if (!relevant || !fragments) continue;
  const firstRelevant = [...relevant.keys()][0] ?? "";
  const group = `code-dev/${repositoryOf.get(docOf.get(firstRelevant) ?? "") ?? "unknown"}`;
  const seen = new Set<string>();
  for (const fragment of fragments) {
    if (fragment.source.kind !== "file" || !fragment.rank?.model) continue;
    const features = fragment.rank.model.features;
    for (const unit of locator.unitsOf(fragment)) {
      if (seen.has(unit) || seen.size >= ROWS_PER_QUERY) continue;
      seen.add(unit);
      const row: RankingRow = {
        group,
        query: `code-dev/${query.id}`,
        item: unit,
        features,
        gain: relevant.get(unit) ?? 0,
        total: relevant.size,
      };
      process.stdout.write(`${JSON.stringify(row)}\n`);
    }
  }
}
