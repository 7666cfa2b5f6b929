import type { Command } from "commander";
import { loadConfig } from "../../config/load-config.js";
import { findProjectRoot } from "../../engine/locate-project.js";
import { readBeirDataset } from "../../eval/beir.js";
import { pipelineRanker } from "../../eval/pipeline-ranker.js";
import { type EvalReport, runEval } from "../../eval/run-eval.js";
import { SqliteStore } from "../../store/sqlite/sqlite-store.js";
import { createTokenCounter } from "../../tokens/create-counter.js";
import { collect, positiveIntegerList } from "../parse-options.js";

interface EvalFlags {
  strategy?: string[];
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
    .option(
      "-s, --strategy <name>",
      "strategy to measure through the pipeline (repeatable; default: the enabled ones)",
      collect,
    )
    .option("-k, --k <list>", "cut-offs for Pass@k", positiveIntegerList, [5, 10, 20])
    .option("--json", "print one JSON object")
    .action((dir: string, flags: EvalFlags) =>
      run(async () => {
        const root = findProjectRoot(process.cwd());
        const config = loadConfig(root);
        const counter = createTokenCounter(config.tokens.counter);
        const strategies = flags.strategy ?? config.strategies.enabled;
        const rank = await pipelineRanker(config.strategies, strategies, counter, root);
        const dataset = await readBeirDataset(dir);
        const report = await runEval(dataset, {
          label: strategies.join("+"),
          rank,
          ks: flags.k,
          counter,
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
    `Strategy: ${report.strategy} (through the pipeline)`,
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
