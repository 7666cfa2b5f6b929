/**
 * `ctx eval` on code questions written after the ranking model was fitted:
 * 132 questions about the 50 files of the shared code-dev corpus that no
 * development question asks about (the corpus's distractors), judged chunk by
 * chunk. The development questions cover the other 40 files; a gain that
 * holds only there is fitted to them. Prints the default pipeline, the keyword
 * strategy alone and, when given, other ranking models, side by side.
 *
 *   npm run build && npx tsx bench/code-questions-held-out/run.ts ../shared/eval/code-dev [MODEL.json…]
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, "..", "..", "dist", "cli", "main.js");
const [corpusDir = "../shared/eval/code-dev", ...models] = process.argv.slice(2);

interface Figures {
  readonly "pass@5": number;
  readonly "pass@10": number;
  readonly "pass@20": number;
  readonly "ndcg@10": number;
  readonly "mrr@10": number;
}

const work = mkdtempSync(join(tmpdir(), "ctx-held-out-questions-"));
try {
  // The corpus and its documents are the shared data set's; the questions and judgements are ours.
  for (const file of ["corpus.jsonl", "documents.jsonl"]) {
    cpSync(join(corpusDir, file), join(work, file));
  }
  cpSync(join(HERE, "queries.jsonl"), join(work, "queries.jsonl"));
  cpSync(join(HERE, "qrels"), join(work, "qrels"), { recursive: true });
  const evaluate = (args: readonly string[], model?: string): Figures =>
    JSON.parse(
      execFileSync(process.execPath, [CLI, "eval", work, "--json", ...args], {
        encoding: "utf8",
        env: { ...process.env, ...(model ? { CTX_RANKING_MODEL: model } : {}) },
      }),
    ) as Figures;
  const rows: [string, Figures][] = [
    ["default pipeline", evaluate([])],
    ["keyword strategy alone", evaluate(["--strategy", "simple-keyword"])],
    ...models.map((model): [string, Figures] => [`default, model ${model}`, evaluate([], model)]),
  ];
  const lines = [
    "| set-up | Pass@5 | Pass@10 | Pass@20 | nDCG@10 | MRR@10 |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows.map(
      ([name, f]) =>
        `| ${name} | ${f["pass@5"].toFixed(2)} | ${f["pass@10"].toFixed(2)} | ${f["pass@20"].toFixed(2)} | ${f["ndcg@10"].toFixed(2)} | ${f["mrr@10"].toFixed(2)} |`,
    ),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
