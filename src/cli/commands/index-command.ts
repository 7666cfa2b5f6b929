import { existsSync } from "node:fs";
import type { Command } from "commander";
import { PathNotFoundError } from "../../core/errors.js";
import { type IndexReport, SKIP_REASONS } from "../../core/types.js";
import type { ContextEngine } from "../../engine/context-engine.js";
import type { IndexRunReport } from "../../engine/run-index.js";
import { jsonText, visibleLine } from "../../text/visible-text.js";
import { formatIndexReport, skippedFilesLines } from "../format.js";
import { formatContexts, formatEmbeddings } from "../format-contexts.js";
import { formatHistory } from "../format-history.js";
import { writeErr, writeOut } from "../output.js";
import { collect } from "../parse-options.js";
import { dbFlag, openEngine } from "../with-engine.js";

interface IndexFlags {
  db?: string;
  forget?: string[];
  json?: boolean;
  contextualize?: string | boolean;
  dryRun?: boolean;
  embedder?: string;
  force?: boolean;
  verbose?: boolean;
}

import { interruptible } from "../interrupt.js";
import { indexProgressReporter } from "../progress.js";

export function registerIndexCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command("index")
    .description(
      "index folders or git checkouts (default: the roots already indexed, or this project)",
    )
    .argument("[paths...]", "folders to index")
    .addOption(dbFlag())
    .option("--json", "print the report as JSON")
    .option(
      "--contextualize [generator]",
      "write chunk contexts with this generator (anthropic, claude-agent-sdk, openai-compatible, structural, none); without a name, the configured one",
    )
    .option(
      "--embedder <name>",
      "embed chunks with use-lite, openai-compatible or none (default: [embeddings] provider)",
    )
    .option(
      "--dry-run",
      "with --contextualize: show what would be sent and its estimated cost, send nothing",
    )
    .option(
      "--force",
      "read and chunk every file again, not only those whose size or mtime changed",
    )
    .option(
      "--verbose",
      "say on stderr when each phase begins (files, git history, contexts, embeddings) and name the skipped files",
    )
    .option(
      "--forget <path>",
      "remove a root and its files from the index (repeatable); with no paths given, nothing is indexed",
      collect,
    )
    .action((paths: string[], options: IndexFlags) =>
      run(async () => {
        const missing = paths.find((path) => !existsSync(path));
        if (missing !== undefined) throw new PathNotFoundError(missing, "folder to index");
        const engine = await openEngine({
          start: paths[0] ?? ".",
          ...(options.db ? { db: options.db } : {}),
        });
        try {
          const forgotten = [];
          for (const path of options.forget ?? []) forgotten.push(await engine.forget(path));
          const forgottenLines = forgotten
            .map(
              ({ root, documents }) =>
                `Forgot ${root}: ${documents} ${documents === 1 ? "file" : "files"} removed from the index\n`,
            )
            .join("");
          if (forgotten.length > 0 && paths.length === 0) {
            writeOut(
              options.json
                ? `${jsonText({ forgotten, indexPath: engine.indexPath })}\n`
                : forgottenLines,
            );
            return 0;
          }
          const report = await indexWithProgress(engine, paths, options);
          if (options.json) {
            const extra = forgotten.length > 0 ? { forgotten } : {};
            writeOut(`${jsonText({ ...report, ...extra, indexPath: engine.indexPath })}\n`);
          } else {
            writeOut(
              `${forgottenLines}${formatIndexReport(report, engine.indexPath)}\n${formatContexts(report.contexts)}\n${formatEmbeddings(report.embeddings)}\n${formatHistory(report.history, report.resources.length)}`,
            );
            if (options.verbose) writeOut(skippedFilesText(report));
          }
          if (report.added + report.changed + report.unchanged === 0)
            writeErr(`ctx: ${nothingIndexed(report)}\n`);
          return 0;
        } catch (error) {
          throw engine.store.explainFailure(error);
        } finally {
          await engine.close();
        }
      }),
    );
}

/** Indexes with a progress bar on a terminal (none with --json); Ctrl-C stops it between files. */
async function indexWithProgress(
  engine: ContextEngine,
  paths: readonly string[],
  options: IndexFlags,
): Promise<IndexRunReport> {
  const progress = indexProgressReporter(!options.json, options.verbose ?? false);
  try {
    return await interruptible((signal) =>
      engine.index(paths, {
        onProgress: progress.onProgress,
        dryRun: options.dryRun ?? false,
        force: options.force ?? false,
        signal,
        ...(typeof options.contextualize === "string"
          ? { contextualize: options.contextualize }
          : {}),
        ...(options.embedder ? { embedder: options.embedder } : {}),
      }),
    );
  } finally {
    progress.stop();
  }
}

/** `ctx index --verbose`: the skipped files by reason, under each root that skipped some. */
function skippedFilesText(report: IndexRunReport): string {
  return report.skippedFiles
    .map(({ root, skipped, files }) => {
      const lines = skippedFilesLines(skipped, files, "  ");
      return lines.length > 0 ? `Skipped in ${visibleLine(root)}:\n${lines.join("\n")}\n` : "";
    })
    .join("");
}

/** An index run that found no file to read: where it looked, and what it skipped instead. */
function nothingIndexed(report: IndexReport): string {
  const roots = report.resources.map((resource) => visibleLine(resource.root)).join(", ");
  const skipped = SKIP_REASONS.filter((reason) => report.skipped[reason] > 0)
    .map((reason) => `${reason} ${report.skipped[reason]}`)
    .join(", ");
  return `no file under ${roots} is one ctx reads${skipped ? ` (skipped: ${skipped})` : " (the folder holds no files)"}: queries will find nothing until it holds source or text files`;
}
