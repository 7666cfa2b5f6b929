import type { Command } from "commander";
import { UsageError } from "../../core/errors.js";
import type { ContextStrategy } from "../../core/strategy.js";
import type { TokenCounter } from "../../core/token-counter.js";
import { readBeirDataset } from "../../eval/beir.js";
import { type EvalReport, runEval } from "../../eval/run-eval.js";
import { SqliteStore } from "../../store/sqlite/sqlite-store.js";
import { SimpleKeywordStrategy } from "../../strategies/builtins/simple-keyword.js";
import { o200kCounter } from "../../tokens/o200k-counter.js";
import { positiveIntegerList } from "../parse-options.js";

/** Strategies `ctx eval` can measure; the registry of issue #3 will replace this table. */
const EVAL_STRATEGIES: Readonly<Record<string, (counter: TokenCounter) => ContextStrategy>> = {
  "simple-keyword": (counter) => new SimpleKeywordStrategy(counter),
};

interface EvalFlags {
  strategy: string;
  k: number[];
  json?: boolean;
}

export function registerEvalCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command("eval")
    .description(
      "measure retrieval quality on a BEIR-format folder (corpus.jsonl, queries.jsonl, qrels/test.tsv)",
    )
    .argument("<dir>", "the data set folder")
    .option("-s, --strategy <name>", "strategy to measure", "simple-keyword")
    .option("-k, --k <list>", "cut-offs for Pass@k", positiveIntegerList, [5, 10, 20])
    .option("--json", "print one JSON object")
    .action((dir: string, flags: EvalFlags) =>
      run(async () => {
        const makeStrategy = EVAL_STRATEGIES[flags.strategy];
        if (!makeStrategy) {
          throw new UsageError(
            `unknown strategy "${flags.strategy}"; available: ${Object.keys(EVAL_STRATEGIES).join(", ")}`,
          );
        }
        const dataset = await readBeirDataset(dir);
        const report = await runEval(dataset, {
          strategy: makeStrategy(o200kCounter),
          ks: flags.k,
          counter: o200kCounter,
          openStore: (file) => SqliteStore.open(file, { create: true }),
        });
        process.stdout.write(
          flags.json
            ? `${JSON.stringify(toJson(report, flags.k))}\n`
            : formatReport(report, flags.k),
        );
        return 0;
      }),
    );
}

function toJson(report: EvalReport, ks: readonly number[]): Record<string, string | number> {
  const json: Record<string, string | number> = {
    dataset: report.dataset,
    strategy: report.strategy,
    queries: report.queries,
  };
  for (const k of ks) json[`pass@${k}`] = report.passAtK[k] ?? 0;
  json["ndcg@10"] = report.ndcgAt10;
  json["mrr@10"] = report.mrrAt10;
  json.qps = report.queriesPerSecond;
  return json;
}

function formatReport(report: EvalReport, ks: readonly number[]): string {
  const rows = [
    `Dataset: ${report.dataset} (${report.units} units, ${report.queries} judged queries; indexed in ${report.indexSeconds} s)`,
    `Strategy: ${report.strategy}`,
    ...ks.map(
      (k) =>
        `Pass@${k} (= Recall@${k}): ${report.passAtK[k]?.toFixed(2)}  · tokens in top ${k}: ${report.tokensPerQuery[k]}`,
    ),
    `nDCG@10: ${report.ndcgAt10.toFixed(2)}`,
    `MRR@10: ${report.mrrAt10.toFixed(2)}`,
    `Queries per second: ${report.queriesPerSecond}`,
  ];
  return `${rows.join("\n")}\n`;
}
