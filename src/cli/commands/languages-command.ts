import type { Command } from "commander";
import { jsonText } from "../../text/visible-text.js";
import { writeOut } from "../output.js";

export function registerLanguagesCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command("languages")
    .description(
      "the languages ctx reads: extensions, how files are chunked, whether they join the code graph",
    )
    .option("--check", "load every grammar to see that it works here")
    .option("--json", "print as JSON")
    .action((flags: { check?: boolean; json?: boolean }) =>
      run(async () => {
        const { languageTable } = await import("../../parse/language-table.js");
        const rows = await languageTable(flags.check === true);
        const withGraph = rows.filter((row) => row.chunking === "syntax" && row.graph).length;
        const failed = rows.filter((row) => row.grammarLoads === false);
        if (flags.json) {
          writeOut(`${jsonText({ languages: rows, withChunkingAndGraph: withGraph })}\n`);
          return failed.length > 0 ? 1 : 0;
        }
        const table = [
          ["LANGUAGE", "EXTENSIONS", "CHUNKING", "GRAPH", ...(flags.check ? ["GRAMMAR"] : [])],
          ...rows.map((row) => [
            row.embeds ? `${row.name} (script as ${row.embeds})` : row.name,
            row.extensions.join(" "),
            row.chunking,
            row.graph ? "yes" : "no",
            ...(flags.check
              ? [row.grammarLoads ? "loads" : `fails: ${row.grammarError ?? ""}`]
              : []),
          ]),
        ];
        const widths =
          table[0]?.map((_, column) =>
            Math.max(...table.map((line) => (line[column] ?? "").length)),
          ) ?? [];
        for (const line of table) {
          writeOut(
            `${line
              .map((cell, column) => cell.padEnd(widths[column] ?? 0))
              .join("  ")
              .trimEnd()}\n`,
          );
        }
        const programs = rows.flatMap((row) => row.interpreters?.slice(0, 1) ?? []).join(", ");
        const named = rows.flatMap((row) => row.filenames ?? []).slice(0, 2);
        const byName = named.length > 0 ? `; ${named.join(", ")} and the like by their name` : "";
        writeOut(
          `\n${withGraph} languages with syntax chunking and a code graph; other files are cut in line windows (Markdown at its headings, SQL at its statements, JSON at its keys).\n` +
            `A file with no extension is read in the language its #! line runs (${programs}, …) or its editor's mode line names${byName}.\n`,
        );
        return failed.length > 0 ? 1 : 0;
      }),
    );
}
