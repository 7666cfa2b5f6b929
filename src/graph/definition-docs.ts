/**
 * The comment that documents a definition: the comment block right above it
 * (`/** … *\/`, `///`, `//`, `#` where the language comments so), or a Python
 * docstring at the top of its body. `ctx symbols` and MCP `find_symbol` show
 * it: what a definition is for, in the project's own words, next to its
 * signature. Only the docstring is read while indexing (it needs the body's
 * place in the parse tree); the comment above is read from the stored lines
 * when a definition is looked up: reading and cleaning it for every
 * definition of every file was about a sixth of the code graph's extraction,
 * for the few definitions anyone looks up.
 */

import { languageSupport } from "../languages/registry.js";

/** Longest doc kept: its first sentences say what the definition is for. */
export const MAX_DOC_CHARS = 400;
/** Comment lines read above a definition at most. */
const MAX_DOC_LINES = 40;

/**
 * What indexing keeps of a definition's doc, in a language with docstrings:
 * its docstring, when its body (starting at `bodyStart`) opens with one.
 */
export function indexedDoc(source: string, bodyStart: number | null): string {
  return bodyStart !== null ? docstringAt(source, bodyStart) : "";
}

/**
 * The doc of the definition starting on line `line` (1-based) of a file whose
 * lines `lineAt` gives: the comment right above it, else what indexing kept
 * (`indexed`); "" when it has none.
 */
export function definitionDoc(
  lineAt: (line: number) => string,
  language: string,
  line: number,
  indexed: string,
): string {
  const above = commentAbove(lineAt, language, line);
  return above !== "" ? above : indexed;
}

function commentAbove(
  lineAt: (line: number) => string,
  language: string,
  definitionLine: number,
): string {
  const hash = languageSupport(language)?.hashComments === true;
  const lines: string[] = [];
  let inBlock = false;
  for (let at = definitionLine - 1, read = 0; at >= 1 && read < MAX_DOC_LINES; at--, read++) {
    const line = lineAt(at).trim();
    if (inBlock) {
      lines.push(line);
      if (line.includes("/*")) break;
      continue;
    }
    if (line.endsWith("*/")) {
      lines.push(line);
      if (line.includes("/*")) break;
      inBlock = true;
    } else if (line.startsWith("//") || (hash && line.startsWith("#") && !line.startsWith("#!"))) {
      lines.push(line);
    } else if (lines.length === 0 && isAnnotation(line)) {
      // Decorators and attributes sit between a doc comment and what it documents.
    } else {
      break;
    }
  }
  return cleanDoc(lines.reverse());
}

/** `@decorator(…)`, `#[derive(…)]`, `[Attribute]`. */
function isAnnotation(line: string): boolean {
  return (
    line.startsWith("@") || line.startsWith("#[") || (line.startsWith("[") && line.endsWith("]"))
  );
}

/** A string literal opening the body: `"""…"""`, `'''…'''` or a one-line `"…"`. */
function docstringAt(source: string, bodyStart: number): string {
  let i = bodyStart;
  while (i < source.length && /\s/.test(source.charAt(i))) i++;
  if (/[rRuU]/.test(source.charAt(i))) i++;
  const triple = source.slice(i, i + 3);
  if (triple === '"""' || triple === "'''") {
    const close = source.indexOf(triple, i + 3);
    if (close < 0) return "";
    return cleanDoc(source.slice(i + 3, Math.min(close, i + 3 + 4 * MAX_DOC_CHARS)).split("\n"));
  }
  const quote = source.charAt(i);
  if (quote !== '"' && quote !== "'") return "";
  const lineEnd = source.indexOf("\n", i);
  const close = source.lastIndexOf(quote, lineEnd < 0 ? source.length : lineEnd);
  return close > i ? cleanDoc([source.slice(i + 1, close)]) : "";
}

/** Comment markers off, lines joined, cut at a word boundary. */
function cleanDoc(lines: readonly string[]): string {
  let text = "";
  for (const line of lines) {
    const clean = line
      .trim()
      .replace(/^(\/\*+!?|\*+\/?|\/\/[/!]?|#+)/, "")
      .replace(/\*+\/$/, "")
      .trim()
      .replace(/\s+/g, " ");
    if (clean.length === 0) continue;
    text = text === "" ? clean : `${text} ${clean}`;
    // A long block's later lines (a JSDoc's @param list) would only be cut off.
    if (text.length > MAX_DOC_CHARS) break;
  }
  if (text.length <= MAX_DOC_CHARS) return text;
  const cut = text.lastIndexOf(" ", MAX_DOC_CHARS);
  return text.slice(0, cut > 0 ? cut : MAX_DOC_CHARS);
}
