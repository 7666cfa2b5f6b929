import type { ChunkForContext } from "../core/context-generator.js";
import type { DocumentOutline } from "./document-outline.js";

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;
const MAX_USES = 8;
const MAX_DEFINES = 8;

/**
 * A context written from what the code itself says, with no model: where the
 * chunk is (path, language, enclosing definitions), what the file is about
 * (its leading doc comment), what the chunk defines and which imported or
 * file-level symbols it uses. Deterministic and cheap.
 */
export function structuralContext(
  chunk: ChunkForContext,
  outline: DocumentOutline,
  maxWords = 60,
): string {
  const parts: string[] = [];
  if (chunk.path)
    parts.push(`${chunk.path}${chunk.language !== "text" ? ` (${chunk.language})` : ""}.`);
  if (outline.summary)
    parts.push(outline.summary.endsWith(".") ? outline.summary : `${outline.summary}.`);
  const place = [...chunk.enclosing].reverse().filter((name) => name.length > 0);
  const self =
    chunk.symbol && chunk.kind !== "code" && chunk.kind !== "window" && chunk.kind !== "unit"
      ? `${chunk.kind} ${chunk.symbol}`
      : "";
  if (place.length > 0 && self) parts.push(`In ${place.join(" > ")}: ${self}.`);
  else if (place.length > 0) parts.push(`In ${place.join(" > ")}.`);
  else if (self) parts.push(`${capitalize(self)}.`);
  const defines = chunk.defines
    .filter((name) => name && name !== chunk.symbol)
    .slice(0, MAX_DEFINES);
  if (defines.length > 0) parts.push(`Also defines ${defines.join(", ")}.`);
  const uses = usedSymbols(chunk, outline);
  if (uses.length > 0) parts.push(`Uses ${uses.join(", ")}.`);
  const words = parts.join(" ").split(" ");
  return words.length > maxWords ? `${words.slice(0, maxWords).join(" ")}…` : words.join(" ");
}

/** Imported or file-level symbols the chunk mentions, in order of first use. */
function usedSymbols(chunk: ChunkForContext, outline: DocumentOutline): string[] {
  const own = new Set([chunk.symbol, ...chunk.defines, ...chunk.enclosing]);
  const uses: string[] = [];
  // Runs over every indexed chunk: only names the outline knows are remembered.
  IDENTIFIER.lastIndex = 0;
  for (let match = IDENTIFIER.exec(chunk.content); match; match = IDENTIFIER.exec(chunk.content)) {
    const name = match[0];
    if (!outline.imports.has(name) && !outline.symbols.has(name)) continue;
    if (own.has(name) || uses.includes(name)) continue;
    uses.push(name);
    if (uses.length >= MAX_USES) break;
  }
  return uses;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
