import type { Command } from "commander";
import type { HistorySpan } from "../../core/history.js";
import type { ServerStorage } from "../../core/store.js";
import { MIN_WINDOW } from "../../history/task-identifiers.js";
import { formatBytes, formatSkipped, skippedFilesLines } from "../format.js";
import { writeJson, writeOut } from "../output.js";
import { dbFlag, dbOption, withEngine } from "../with-engine.js";

export function registerStatusCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command("status")
    .description("show what the index covers: roots, files, chunks, skipped files by reason")
    .option("--json", "print the status as JSON")
    .addOption(dbFlag())
    .action((flags: { json?: boolean; db?: string }) =>
      run(async () => {
        return withEngine(
          {
            ifMissing: "fail",
            ...dbOption(flags),
          },
          async (engine) => {
            const status = await engine.status();
            if (flags.json) {
              writeJson(status);
              return 0;
            }
            const { store } = status;
            const lines = [
              `Project: ${status.root}`,
              `Index: ${status.indexPath} (${describeSize(status.indexBytes, store.server)}, schema v${store.schemaVersion})`,
              `Files${store.server ? ` of project ${status.project}` : ""}: ${store.documents} (${formatBytes(store.bytes)}) · chunks: ${store.chunks}`,
              `Languages: ${
                Object.entries(store.languages)
                  .map(([language, count]) => `${language} ${count}`)
                  .join(", ") || "none"
              }`,
              `History: ${store.history.commits} commits, ${store.history.changes} file changes${describeDiffsRead(store.history.diffsRead)}`,
              `Tiers: hot ${status.tiers.hot.length} (${status.tiers.hot.join(", ") || "no hot files"}) · warm ${status.tiers.warm} files · cold ${status.tiers.cold.commits} commits, ${status.tiers.cold.closedPlans} closed plans`,
              `Code graph: ${store.graph.definitions} definitions, ${store.graph.references} references, ${store.graph.imports} imports${store.graph.orphans > 0 ? ` · ${store.graph.orphans} rows of files no longer indexed: the index is inconsistent; move it aside and run \`ctx index\`` : " · consistent with the chunks"}`,
              `Token counter: ${status.tokenCounter}`,
              `Contexts: ${status.contextGenerator.name}${status.contextGenerator.model ? ` (${status.contextGenerator.model})` : ""} — ${status.contextGenerator.reason}`,
              `  chunks by context: ${
                Object.entries(store.contexts)
                  .map(([state, n]) => `${state} ${n}`)
                  .join(", ") || "none yet"
              }`,
              `Embeddings: ${status.embeddings.embedder} — ${status.embeddings.reason}${status.embeddings.coverage ? `; ${status.embeddings.coverage.embedded} of ${status.embeddings.coverage.total} chunks have vectors` : ""}`,
              `Config: ${status.configFiles.length > 0 ? status.configFiles.join(", ") : "defaults (no ctx.toml)"}`,
              ...(status.untrustedSettings.length > 0
                ? [
                    `Untrusted: ${status.untrustedSettings.join(", ")} of ctx.toml ignored (\`ctx trust\` allows them)`,
                  ]
                : []),
              "Optional features:",
              ...status.optionalFeatures.map(
                (feature) =>
                  `  ${feature.name}: ${feature.installed ? "installed" : `not installed (${feature.install})`} · ${feature.description}`,
              ),
              "Roots:",
            ];
            for (const resource of status.resources) {
              const gone = resource.missing ? " · missing: the folder is gone" : "";
              lines.push(
                `  ${resource.root} (${resource.kind}) · last indexed ${resource.lastIndexedAt ?? "never"}${gone}`,
              );
              lines.push(`    skipped: ${formatSkipped(resource.skipped)}`);
              lines.push(...skippedFilesLines(resource.skipped, resource.skippedFiles, "      "));
              if (resource.history) lines.push(`    history: ${formatSpan(resource.history)}`);
            }
            if (status.resources.length === 0) lines.push("  none: run `ctx index <path>`");
            writeOut(`${lines.join("\n")}\n`);
            return 0;
          },
        );
      }),
    );
}

/** The index's size; on a server, its schema's, saying when other projects' rows are in it too. */
function describeSize(bytes: number, server: ServerStorage | undefined): string {
  if (!server) return formatBytes(bytes);
  const others = server.projects - 1;
  const shared =
    others > 0 ? `, shared with ${others} other ${others === 1 ? "project" : "projects"}` : "";
  return `${formatBytes(bytes)} in schema ${server.schema}${shared}`;
}

function formatSpan(span: HistorySpan): string {
  if (span.commits === 0) return span.readAt ? "no commits" : "not read yet";
  const days =
    span.first && span.last ? `, ${span.first.slice(0, 10)} … ${span.last.slice(0, 10)}` : "";
  return `${span.commits} ${span.commits === 1 ? "commit" : "commits"}${days}`;
}

/** How much of the history words to code reads (see task-identifiers.ts). */
function describeDiffsRead(read: number): string {
  return read === 0
    ? ""
    : ` · diffs of ${read} commits read for words to code (used from ${MIN_WINDOW} on)`;
}
