import { basename, resolve } from "node:path";
import type { Command } from "commander";
import { UsageError } from "../../core/errors.js";
import { jsonText } from "../../text/visible-text.js";
import { writeOut } from "../output.js";

interface MigrateFlags {
  from: string;
  to: string;
  json?: boolean;
}

export function registerMigrateCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command("migrate")
    .description(
      "copy an SQLite index (chunks, contexts, vectors, graph, history, plans) to a PostgreSQL server, paying for nothing again",
    )
    .requiredOption("--from <file>", "the SQLite index file (e.g. .ctx/index.db)")
    .requiredOption("--to <url>", "the PostgreSQL server (postgres://user@host/db)")
    .option("--json", "print one JSON object")
    .action((flags: MigrateFlags) =>
      run(async () => {
        const { isPostgresUrl, maskUrl } = await import(
          "../../store/postgres/connection-errors.js"
        );
        if (!isPostgresUrl(flags.to)) {
          throw new UsageError(`--to takes a postgres:// URL, got ${maskUrl(flags.to)}`);
        }
        const { findProjectRoot } = await import("../../engine/locate-project.js");
        const { loadConfig } = await import("../../config/load-config.js");
        const { warnUntrusted } = await import("../../config/untrusted-warning.js");
        const root = findProjectRoot(process.cwd());
        const config = await loadConfig(root);
        warnUntrusted(config);
        const project = config.storeServer.project ?? `local/${basename(root)}`;
        const { migrateIndex } = await import("../../engine/migrate-index.js");
        const report = await migrateIndex(resolve(flags.from), flags.to, {
          project,
          schema: config.storeServer.schema,
        });
        const where = `${maskUrl(flags.to)} (schema ${config.storeServer.schema}, project ${project})`;
        writeOut(
          flags.json
            ? `${jsonText({ ...report, to: maskUrl(flags.to), project })}\n`
            : `Copied ${flags.from} to ${where}: ${report.resources} roots, ${report.documents} files, ${report.chunks} chunks (contexts as stored), ${report.vectors} vectors, ${report.commits} commits, ${report.plans} plans, ${report.cachedContexts} cached contexts\nUse it with --db or CTX_DATABASE_URL set to that URL.\n`,
        );
        return 0;
      }),
    );
}
