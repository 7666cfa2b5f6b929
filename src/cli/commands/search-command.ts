import type { Command } from "commander";
import { fileFragmentId } from "../../core/fragment-id.js";
import type { TextHit } from "../../core/text-backend.js";
import { queryTerms } from "../../text/code-tokenizer.js";
import { visibleLine } from "../../text/visible-text.js";
import { ensureIndex } from "../ensure-index.js";
import { writeJson, writeOut } from "../output.js";
import { collect, positiveInteger } from "../parse-options.js";
import { dbFlag, dbOption, withEngine } from "../with-engine.js";

interface SearchFlags {
  limit: number;
  json?: boolean;
  path?: string[];
  refresh: boolean;
  db?: string;
}

export function registerSearchCommand(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command("search")
    .description("rank indexed chunks by keyword relevance (BM25)")
    .argument("<query...>", "words or identifiers to look for")
    .option("-n, --limit <count>", "how many results", positiveInteger, 10)
    .option("--json", "print results as JSON")
    .option("-p, --path <path>", "only search files under this path (repeatable)", collect)
    .option("--no-refresh", "search the index as it is, without re-indexing changed files")
    .addOption(dbFlag())
    .action((words: string[], flags: SearchFlags) =>
      run(async () => {
        return withEngine({ ...dbOption(flags) }, async (engine) => {
          await ensureIndex(engine, flags.refresh);
          const query = words.join(" ");
          const hits = await engine.search(query, flags.limit, flags.path);
          const terms = queryTerms(query);
          const showId = await engine.fragmentIds();
          const results = hits.map((hit) => toResult(hit, terms, showId));
          if (flags.json) {
            writeJson({ query, results });
          } else if (results.length === 0) {
            writeOut(`No chunks match "${query}".\n`);
          } else {
            // One line per name: a newline in a file or symbol name cannot add a result of its own.
            for (const [rank, result] of results.entries()) {
              const owner = result.parent ? `${visibleLine(result.parent)}.` : "";
              const symbol = result.symbol
                ? ` ${result.kind} ${owner}${visibleLine(result.symbol)}`
                : ` ${result.kind}`;
              writeOut(
                `${rank + 1}. ${visibleLine(result.path)}:${result.startLine}-${result.endLine}${symbol} (score ${result.score})\n   ${visibleLine(result.snippet)}\n`,
              );
            }
          }
          return 0;
        });
      }),
    );
}

function toResult(hit: TextHit, terms: readonly string[], showId: (id: string) => string) {
  const { chunk } = hit;
  return {
    id: showId(fileFragmentId(chunk.resourceId, chunk.path, chunk.startLine, chunk.endLine)),
    path: chunk.path,
    startLine: chunk.startLine,
    endLine: chunk.endLine,
    score: Math.round(hit.score * 1000) / 1000,
    kind: chunk.kind,
    symbol: chunk.symbol,
    parent: chunk.parentSymbol,
    snippet: snippetOf(chunk.content, terms),
  };
}

/** The first line that mentions a query term (else the first non-blank line), trimmed. */
function snippetOf(content: string, terms: readonly string[]): string {
  const lines = content.split("\n");
  const hit = lines.find((line) => {
    const lower = line.toLowerCase();
    return terms.some((term) => lower.includes(term));
  });
  const line = (hit ?? lines.find((candidate) => candidate.trim().length > 0) ?? "").trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
