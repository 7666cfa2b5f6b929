import type { Command } from "commander";
import { collect, positiveIntegerList } from "../parse-options.js";
import type { EvalFlags } from "./eval-run.js";

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
    .option(
      "--contextualize <generator>",
      "the contexts written for every unit first (anthropic, claude-agent-sdk, openai-compatible, structural, none), using documents.jsonl; default structural, what ctx index writes without a model",
    )
    .option(
      "--embedder <name>",
      "embed every unit first (use-lite, openai-compatible) so vector strategies can run",
    )
    .option("--json", "print one JSON object")
    .option(
      "--html <file>",
      "also write an HTML page: each strategy's metrics (alone, and together) as a chart, and the queries each one missed",
    )
    .option(
      "--db <url>",
      "evaluate in a temporary schema of this PostgreSQL database (postgres://…), dropped after",
    )
    .action((dir: string, flags: EvalFlags) =>
      run(async () => (await import("./eval-run.js")).runEvalCommand(dir, flags)),
    );
}
