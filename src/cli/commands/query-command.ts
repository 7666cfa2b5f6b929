import { type Command, Option } from "commander";
import { OUTPUT_FORMATS, type OutputFormat } from "../../assemble/renderers.js";
import { UsageError } from "../../core/errors.js";
import type { QueryOptions } from "../../engine/engine-options.js";
import { explainEmptyAnswer } from "../empty-answer.js";
import { ensureIndex } from "../ensure-index.js";
import { warnUnknownFocus } from "../focus-warnings.js";
import { writeErr, writeOut } from "../output.js";
import { collect, positiveInteger } from "../parse-options.js";
import { dbFlag, dbOption, withEngine } from "../with-engine.js";
import { writeRequestReport } from "./report-command.js";

interface QueryFlags {
  budget?: number;
  explain?: boolean;
  strategy?: string[];
  format?: OutputFormat;
  json?: boolean;
  path?: string[];
  focus?: string[];
  plan?: string;
  refresh: boolean;
  db?: string;
  report?: string;
}

export function registerQueryCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command("query")
    .description("assemble the context for a task within a token budget (indexes first if needed)")
    .argument("<task...>", "the task or question")
    .option(
      "-b, --budget <tokens>",
      "token budget for the whole output (default 8000)",
      positiveInteger,
    )
    .addOption(
      new Option("-f, --format <format>", "output format (default markdown)").choices(
        OUTPUT_FORMATS,
      ),
    )
    .option("--json", "the same as --format json, as on every other command")
    .option("-p, --path <path>", "only use files under this path (repeatable)", collect)
    .option(
      "--focus <path-or-symbol>",
      "the file, folder or symbol you are working on: the code graph is walked from it (repeatable)",
      collect,
    )
    .option(
      "--plan <id>",
      "the plan you work in (ctx plan create): its decisions and its ancestors' join the context",
    )
    .option(
      "--explain",
      "add which strategies ran, their budgets, timings and errors, and each fragment's strategy",
    )
    .option(
      "-s, --strategy <name>",
      "run this strategy instead of the project's list (repeatable)",
      collect,
    )
    .option("--no-refresh", "answer from the index as it is, without re-indexing changed files")
    .option(
      "--report <file>",
      "also write an HTML report of this request: budget by strategy, every candidate and why it is in or out",
    )
    .addOption(dbFlag())
    .action((words: string[], flags: QueryFlags) =>
      run(async () => {
        const format = jsonFormat(flags);
        const task = words.join(" ");
        if (task.trim() === "") {
          throw new UsageError(
            'the task is empty: say what you are looking for, e.g. ctx query "where are retries configured"',
          );
        }
        return withEngine({ ...dbOption(flags) }, async (engine) => {
          await ensureIndex(engine, flags.refresh, { graph: true });
          const request: QueryOptions = {
            task,
            budget: flags.budget ?? engine.config.query.budget,
            ...(format ? { format } : {}),
            ...(flags.path ? { paths: flags.path } : {}),
            ...(flags.focus ? { focus: flags.focus } : {}),
            ...(flags.strategy ? { strategies: flags.strategy } : {}),
            ...(flags.plan ? { planId: flags.plan } : {}),
            explain: flags.explain ?? false,
          };
          const result = await engine.query(request);
          warnUnknownFocus(result.unknownFocus, engine.config.graph);
          writeOut(result.output);
          if (flags.report) await writeRequestReport(flags.report, result.requestId, result);
          if (result.fragments.length > 0) return 0;
          const note = await explainEmptyAnswer(engine, request, result);
          writeErr(`ctx: ${note.line}\n`);
          return note.exitCode;
        });
      }),
    );
}

/** `--json` is `--format json`; with another format named as well the two disagree. */
function jsonFormat(flags: QueryFlags): OutputFormat | undefined {
  if (!flags.json) return flags.format;
  if (flags.format && flags.format !== "json") {
    throw new UsageError(`--json and --format ${flags.format} disagree: give one of them`);
  }
  return "json";
}
