import type { Parser, Tree } from "web-tree-sitter";

/** Last characters of a line after which a `<` line continues the expression (`=`, `(`, `,`…); `=>` too. */
const CONTINUES = new Set("=([{,:?|&<+-*/%!~^;");

/**
 * Parses a file; for TypeScript with syntax errors, parses it again with a `;`
 * before each member that starts a line with `<` and keeps the tree with fewer
 * errors. tree-sitter's TypeScript grammar reads overloaded generic call
 * signatures written without semicolons (`<K>(key: K): A` on one line, `<K>(key:
 * K, v: V): void` on the next) as one broken expression, and its recovery can
 * wrap the whole rest of the file in one error node: no class or function in it
 * is found, neither for chunks nor for the code graph. The `;` takes the place of
 * a space, so every position in the tree is the source's.
 */
export function parseSource(parser: Parser, language: string, source: string): Tree | null {
  const tree = parser.parse(source);
  if (!tree || language !== "typescript" || !tree.rootNode.hasError) return tree;
  const separated = separateSignatures(source);
  if (separated === source) return tree;
  let again: Tree | null = null;
  try {
    again = parser.parse(separated);
  } catch (error) {
    // After an abort nothing of the parser's memory, this tree included, can be used.
    if (isParserAbort(error)) throw error;
    // The first tree is still of use; the caller deletes it.
  }
  if (!again) return tree;
  if (errorCount(again) < errorCount(tree)) {
    tree.delete();
    return again;
  }
  again.delete();
  return tree;
}

/** What web-tree-sitter throws when its WebAssembly runtime aborts (an allocation failed): a RuntimeError. */
export function isParserAbort(error: unknown): boolean {
  return (
    error instanceof Error && error.name === "RuntimeError" && error.message.startsWith("Aborted(")
  );
}

/** The source with `;` in place of the first indenting space of each `<` line that follows a finished one. */
export function separateSignatures(source: string): string {
  const lines = source.split("\n");
  // The last line of code, comments skipped (a doc comment often sits between two overloads).
  let previous = "";
  let inComment = false;
  let changed = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const trimmed = line.trim();
    if (trimmed.length === 0) continue;
    if (inComment || trimmed.startsWith("/*")) {
      inComment = !trimmed.includes("*/");
      continue;
    }
    if (trimmed.startsWith("//")) continue;
    const last = previous.at(-1) ?? "";
    const finished = last !== "" && !CONTINUES.has(last) && !previous.endsWith("=>");
    const indented = line.length > line.trimStart().length;
    if (indented && finished && /^<([A-Za-z_$]|$)/.test(trimmed)) {
      lines[index] = `;${line.slice(1)}`;
      changed = true;
    }
    previous = trimmed;
  }
  return changed ? lines.join("\n") : source;
}

function errorCount(tree: Tree): number {
  return tree.rootNode.descendantsOfType("ERROR").length + (tree.rootNode.isError ? 1 : 0);
}
