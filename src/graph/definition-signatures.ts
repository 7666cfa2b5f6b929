/** What the graph keeps of a definition's text: its signature, and which bodiless signatures count. */
import type { Node } from "web-tree-sitter";
import type { GraphDefinition } from "../core/graph.js";

/** A long parameter list is kept whole up to here: what a caller passes is the signature's point. */
const MAX_SIGNATURE_LINES = 12;
const MAX_SIGNATURE_CHARS = 600;
/**
 * A line of a signature that is only a comment (`// eslint-disable-next-line`,
 * a JSDoc line, Python's `# deprecated, remove in 3.0` between parameters) or a
 * compiler directive that is no part of it (C#'s `#pragma warning restore`,
 * `#region`, `#nullable`).
 */
const COMMENT_LINE =
  /^\s*(?:\/\/|\/\*(?:(?!\*\/).)*(?:\*\/\s*)?$|\*\/\s*$|\*(?:\s|$)|#(?:\s|$)|#\s*(?:pragma|region|endregion|nullable)\b)/;

/**
 * The declaration up to its body, or the whole of a definition without one
 * (`type Kind = …;`) up to its end, never the declarations after it, less the
 * comment lines inside it (a lint directive between type parameters costs a
 * map's tokens and says nothing of the API); read from the source, since a
 * node's text costs a call into tree-sitter.
 */
export function signatureOf(node: Node, body: Node | null, source: string): string {
  const start = node.startIndex;
  const head =
    body && body.startIndex > start
      ? source.slice(start, body.startIndex)
      : source.slice(start, Math.min(node.endIndex, start + 2 * MAX_SIGNATURE_CHARS));
  const signature = head
    .split("\n", MAX_SIGNATURE_LINES + 4)
    .filter((line, index) => index === 0 || !COMMENT_LINE.test(line))
    .slice(0, MAX_SIGNATURE_LINES)
    .map((line) => line.trimEnd())
    .join("\n")
    .trim()
    .slice(0, MAX_SIGNATURE_CHARS);
  // Its later lines are kept indented as they are against the first's, not the file's
  // margin (after the cut above, so that what a signature holds is as before).
  const lineStart = source.lastIndexOf("\n", start - 1) + 1;
  const indent = /^[ \t]*/.exec(source.slice(lineStart, start))?.[0].length ?? 0;
  if (indent === 0) return signature;
  return signature
    .split("\n")
    .map((line, index) => (index === 0 ? line : withoutMargin(line, indent)))
    .join("\n");
}

/** A line less up to `indent` characters of its leading white space. */
function withoutMargin(line: string, indent: number): string {
  const own = /^[ \t]*/.exec(line)?.[0].length ?? 0;
  return line.slice(Math.min(indent, own));
}

/** A line that is only a comment: `# passthrough arguments`, `// the rest` (not Rust's `#[attr]`). */
const OWN_LINE_COMMENT = /^(?:#(?!\[)|\/\/)/;
/** A comment after code on its line: `options: dict = None,  # deprecated`, `int n, // count`. */
const TRAILING_COMMENT = /\s+(?:#\s|\/\/).*$/;

/**
 * A signature on one line: its lines trimmed and joined, with no space inside
 * brackets (`def f(\n    a,\n    b,\n):` reads `def f(a, b):`).
 */
export function oneLineSignature(signature: string): string {
  return (
    signature
      .split("\n")
      .map((line) => line.trim())
      // Joined, a comment would run on over the parameters after it.
      .filter((line) => line !== "" && !OWN_LINE_COMMENT.test(line))
      .map((line) => line.replace(TRAILING_COMMENT, ""))
      .join(" ")
      .replace(/([([{]) /g, "$1")
      .replace(/,? ([)\]}])/g, "$1")
  );
}

/**
 * TypeScript's bodiless function signatures: an ambient `declare function` is
 * the function's one definition, while overloads give way to the
 * implementation after them (or, in a declaration file, to the first of them).
 */
export function withoutOverloads(
  definitions: GraphDefinition[],
  signatures: ReadonlySet<GraphDefinition>,
): GraphDefinition[] {
  if (signatures.size === 0) return definitions;
  const key = (definition: GraphDefinition) => `${definition.parent}\0${definition.name}`;
  const implemented = new Set<string>();
  for (const definition of definitions) {
    if (definition.kind === "function" && !signatures.has(definition))
      implemented.add(key(definition));
  }
  const declared = new Set<string>();
  return definitions.filter((definition) => {
    if (!signatures.has(definition)) return true;
    const name = key(definition);
    if (implemented.has(name) || declared.has(name)) return false;
    declared.add(name);
    return true;
  });
}
