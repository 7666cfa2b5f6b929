import { randomBytes } from "node:crypto";
import { loadConfig } from "../../config/load-config.js";
import { warnObsolete } from "../../config/obsolete-warning.js";
import { warnUntrusted } from "../../config/untrusted-warning.js";
import { createGenerator } from "../../contextualize/create-generator.js";
import { resolveGenerator } from "../../contextualize/resolve-generator.js";
import { UsageMeter } from "../../contextualize/usage-meter.js";
import { UsageError } from "../../core/errors.js";
import { createEmbedder, resolveEmbedder } from "../../embed/resolve-embedder.js";
import { findProjectRoot } from "../../engine/locate-project.js";
import { readBeirDataset } from "../../eval/beir.js";
import { pipelineRanker } from "../../eval/pipeline-ranker.js";
import { type EvalReport, runEval } from "../../eval/run-eval.js";
import { evalReportHtml } from "../../report/eval-report.js";
import { createReranker } from "../../rerank/rerank-settings.js";
import { isPostgresUrl, maskUrl } from "../../store/postgres/connection-errors.js";
import { SqliteStore } from "../../store/sqlite/sqlite-store.js";
import { jsonText } from "../../text/visible-text.js";
import { createTokenCounter } from "../../tokens/create-counter.js";
import { writeOut } from "../output.js";
import { writeReportFile } from "../write-report.js";

/** `ctx eval`'s flags, as commander parses them. */
export interface EvalFlags {
  strategy?: string[];
  embedder?: string;
  contextualize?: string;
  k: number[];
  json?: boolean;
  html?: string;
  db?: string;
}

/** `ctx eval`'s work, loaded only when the command runs (the models, stores and data set readers it needs are heavy). */
export async function runEvalCommand(dir: string, flags: EvalFlags): Promise<number> {
  const root = findProjectRoot(process.cwd());
  const config = await loadConfig(root);
  warnUntrusted(config);
  warnObsolete(config);
  const counter = createTokenCounter(config.tokens.counter);
  const strategies = flags.strategy ?? config.strategies.enabled;
  const embedder = flags.embedder
    ? await createEmbedder(
        resolveEmbedder(flags.embedder, config.embeddings, process.env),
        config.embeddings,
        process.env,
      )
    : null;
  const rankerFor = (names: readonly string[]) =>
    pipelineRanker({
      config,
      strategies: names,
      counter,
      projectRoot: root,
      embedder,
      reranker: createReranker(config.rerank, process.env),
    });
  const rank = await rankerFor(strategies);
  // The page compares each strategy alone with all of them together, on one index.
  const compare =
    flags.html && strategies.length > 1
      ? await Promise.all(
          strategies.map(async (name) => ({ label: name, rank: await rankerFor([name]) })),
        )
      : [];
  const dataset = await readBeirDataset(dir);
  const usage = new UsageMeter();
  // What a project's index holds without a model, so the figures are the default's; a model
  // generator is only ever named here, never picked up from the environment (it is paid per unit).
  const contextualize = flags.contextualize ?? "structural";
  const generator =
    contextualize === "none"
      ? undefined
      : await createGenerator(
          resolveGenerator(contextualize, config.contextualize, process.env),
          config.contextualize,
          counter,
          usage,
        );
  const server = evalServer(flags.db);
  const postgres = server ? await import("../../store/postgres/postgres-store.js") : null;
  let report: EvalReport;
  try {
    report = await runEval(dataset, {
      label: strategies.join("+"),
      rank,
      ks: flags.k,
      counter,
      openStore: (file) =>
        server && postgres
          ? postgres.PostgresStore.open(server.url, {
              project: "eval",
              schema: server.schema,
            })
          : SqliteStore.open(file, { create: true }),
      ...(generator ? { contextualize: generator } : {}),
      ...(embedder ? { embedder } : {}),
      compare,
    });
  } finally {
    if (server) {
      const { dropSchema } = await import("../../store/postgres/drop-schema.js");
      await dropSchema(server.url, server.schema);
    }
  }
  if (flags.html)
    await writeReportFile(flags.html, evalReportHtml(report, flags.k), "evaluation report");
  writeOut(flags.json ? `${jsonText(toJson(report, flags.k))}\n` : formatReport(report, flags.k));
  if (generator?.remote && !flags.json) {
    const spent = usage.snapshot();
    writeOut(
      `Model calls: ${spent.calls} (${spent.retries} retries); tokens in ${spent.inputTokens}, out ${spent.outputTokens}\n`,
    );
  }
  return 0;
}

/** The server and the temporary schema `--db` evaluates in; null for the default SQLite file. */
function evalServer(db: string | undefined): { url: string; schema: string } | null {
  if (db === undefined) return null;
  if (!isPostgresUrl(db)) {
    throw new UsageError(
      `--db takes a postgres:// URL here (eval uses a temporary SQLite file otherwise), got ${maskUrl(db)}`,
    );
  }
  return { url: db, schema: `ctx_eval_${randomBytes(6).toString("hex")}` };
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
    report.contexts
      ? `Contexts: ${report.contexts.generator}, ${report.contexts.written} written, ${report.contexts.empty} with nothing to add, ${report.contexts.failed} failed`
      : "Contexts: none",
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
