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
import { codeDevRankings } from "./code-dev-rankings.js";
import type { RankingRow } from "./ranking-rows.js";

const ROWS_PER_QUERY = 40;

const dir = process.argv[2] ?? "../shared/eval/code-dev";
const { dataset, byText, locator, docOf, languageOf } = await codeDevRankings(dir, {
  minimumDepth: ROWS_PER_QUERY,
});
for (const query of dataset.queries) {
  const relevant = dataset.qrels.get(query.id);
  const fragments = byText.get(query.text);
  if (!relevant || !fragments) continue;
  const firstRelevant = [...relevant.keys()][0] ?? "";
  const group = `code-dev/${languageOf.get(docOf.get(firstRelevant) ?? "") ?? "unknown"}`;
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
