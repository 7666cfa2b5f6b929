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
import { StructuralContextGenerator } from "../../src/contextualize/structural-generator.js";
import { ndcgAtK, passAtK } from "../../src/eval/metrics.js";
import { CODE_DEV_LANGUAGES, codeDevRankings } from "./code-dev-rankings.js";

const HERE = dirname(fileURLToPath(import.meta.url));
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
  for (const language of CODE_DEV_LANGUAGES) {
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
  const { dataset, byText, locator, docOf, languageOf } = await codeDevRankings(folder, {
    contextualize: (counter) => new StructuralContextGenerator(counter),
  });
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
