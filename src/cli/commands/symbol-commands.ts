import type { Command } from "commander";
import type { ContextEngine } from "../../engine/context-engine.js";
import { oneLineSignature } from "../../graph/definition-signatures.js";
import { visibleLine } from "../../text/visible-text.js";
import { ensureIndex } from "../ensure-index.js";
import { writeJson, writeOut } from "../output.js";
import { dbFlag, dbOption, withEngine } from "../with-engine.js";

interface SymbolFlags {
  kind?: string;
  path?: string;
  json?: boolean;
  refresh: boolean;
  db?: string;
}

/** `ctx symbols` and `ctx refs`: the code graph's definitions and references. */
export function registerSymbolCommands(
  program: Command,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command("symbols")
    .description("find definitions by name (exact, else without case; NAME* for a prefix)")
    .argument("<query>", "a symbol name")
    .option("--kind <kind>", "only definitions of this kind (function, method, class, …)")
    .option("--path <path>", "only definitions in this file or folder")
    .option("--json", "print the definitions as JSON")
    .option("--no-refresh", "look in the index as it is, without re-indexing changed files")
    .addOption(dbFlag())
    .action((query: string, flags: SymbolFlags) =>
      run(() =>
        withEngine({ ...dbOption(flags) }, async (engine) => {
          await ensureIndex(engine, flags.refresh, { graph: true });
          const found = await engine.findSymbols(query, {
            ...(flags.kind ? { kind: flags.kind } : {}),
            ...(flags.path ? { path: flags.path } : {}),
          });
          const { definitionView } = await import("../../engine/symbol-lookup.js");
          const { firstSentence } = await import("../../ingest/document-outline.js");
          const definitions = found.map(definitionView);
          if (flags.json) {
            writeJson({ query, definitions });
          } else if (definitions.length === 0) {
            writeOut(`No definition named "${query}".${await otherOwners(engine, query)}\n`);
          } else {
            // One line per name: a newline in a file or symbol name cannot add a definition of its own.
            for (const d of definitions) {
              const owner = d.parent ? `${visibleLine(d.parent)}.` : "";
              writeOut(
                `${visibleLine(d.path)}:${d.startLine}-${d.endLine} ${d.kind} ${owner}${visibleLine(d.name)}\n   ${signatureLine(d.signature)}\n` +
                  (d.doc ? `   ${visibleLine(firstSentence(d.doc))}\n` : ""),
              );
            }
          }
          // As grep does: a look-up that finds nothing exits 1, so a script can tell.
          return definitions.length > 0 ? 0 : 1;
        }),
      ),
    );

  program
    .command("refs")
    .description("a symbol's definitions and the places that use it")
    .argument("<symbol>", "a symbol name (Owner.name for a member)")
    .option("--path <path>", "the definition in this file, and only the uses that resolve to it")
    .option("--json", "print definitions and references as JSON")
    .option("--no-refresh", "look in the index as it is, without re-indexing changed files")
    .addOption(dbFlag())
    .action((symbol: string, flags: SymbolFlags) =>
      run(() =>
        withEngine({ ...dbOption(flags) }, async (engine) => {
          await ensureIndex(engine, flags.refresh, { graph: true });
          const result = await engine.findReferences(symbol, flags.path);
          const found = result.definitions.length > 0 || result.references.length > 0;
          if (flags.json) {
            writeJson(result);
            return found ? 0 : 1;
          }
          if (!found) {
            const where = flags.path ? ` in ${flags.path}` : "";
            writeOut(`No definition or use of "${symbol}"${where}.\n`);
            return 1;
          }
          const lines = [`Definitions of ${symbol} (${result.definitions.length}):`];
          for (const d of result.definitions) {
            lines.push(
              `  ${visibleLine(d.path)}:${d.startLine}-${d.endLine} ${d.kind}  ${signatureLine(d.signature)}`,
            );
          }
          // A method's uses are found by name: the graph cannot tell which object a call is made on.
          const byName =
            flags.path === undefined &&
            result.references.length > 0 &&
            result.definitions.length > 0 &&
            result.definitions.every((d) => d.kind === "method");
          lines.push(
            byName
              ? `References (${result.references.length}, by name: a call of that name on any object counts; --path ${visibleLine(result.definitions[0]?.path ?? "")} keeps those that resolve to its definition):`
              : `References (${result.references.length}):`,
          );
          for (const r of result.references)
            lines.push(`  ${visibleLine(r.path)}:${r.line} ${r.kind}`);
          writeOut(`${lines.join("\n")}\n`);
          return 0;
        }),
      ),
    );
}

/** How many owners of a member's name the hint lists. */
const MAX_OTHER_OWNERS = 5;

/**
 * For `Owner.name` that names nothing: where `name` is defined instead (a
 * subclass, an alias, a mistyped owner), so the next look-up can be right.
 */
async function otherOwners(engine: ContextEngine, query: string): Promise<string> {
  const { memberNameOf } = await import("../../engine/symbol-lookup.js");
  const member = memberNameOf(query);
  if (member === null) return "";
  const found = await engine.findSymbols(member, { limit: 100 });
  const exact = found.filter((d) => d.name === member);
  if (exact.length === 0) return "";
  const named = exact
    .slice(0, MAX_OTHER_OWNERS)
    .map(
      (d) =>
        `${d.parent ? `${visibleLine(d.parent)}.` : ""}${visibleLine(d.name)} (${visibleLine(d.path)}:${d.startLine})`,
    );
  const more =
    exact.length > MAX_OTHER_OWNERS ? `, and ${exact.length - MAX_OTHER_OWNERS} more` : "";
  return ` "${visibleLine(member)}" is defined as ${named.join(", ")}${more}: \`ctx symbols ${visibleLine(member)}\` lists them.`;
}

/** The whole signature on one line: a newline in it cannot add a line of its own. */
function signatureLine(text: string): string {
  return visibleLine(oneLineSignature(text));
}
