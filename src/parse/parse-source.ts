import type { Parser, Tree } from "web-tree-sitter";

/** Last characters of a line after which a `<` line continues the expression (`=`, `(`, `,`…); `=>` too. */
const CONTINUES = new Set("=([{,:?|&<+-*/%!~^;");

/**
 * Parses a file; where the tree has syntax errors, parses another reading of it
 * (for C and C++ each conditional's first branch, `firstBranches`) and keeps the
 * tree with fewer errors. For TypeScript the other reading has a `;` before each
 * member that starts a line with `<`: tree-sitter's TypeScript grammar reads
 * overloaded generic call signatures written without semicolons (`<K>(key: K): A`
 * on one line, `<K>(key: K, v: V): void` on the next) as one broken expression,
 * and its recovery can wrap the whole rest of the file in one error node: no
 * class or function in it is found, neither for chunks nor for the code graph.
 * The `;` takes the place of a space, so every position in the tree is the
 * source's.
 */
export function parseSource(parser: Parser, language: string, source: string): Tree | null {
  const tree = parser.parse(source);
  if (!tree?.rootNode.hasError) return tree;
  const retry = RETRIES[language];
  if (!retry) return tree;
  const retried = retry.reread(source);
  if (retried === source) return tree;
  return fewerErrors(parser, tree, retried, retry.keeps);
}

/** Another reading of a file whose parse has errors, position for position (see parseSource). */
interface Retry {
  readonly reread: (source: string) => string;
  /** Nodes the other reading may not have fewer of: a blanked branch can hold definitions. */
  readonly keeps?: string;
}

const RETRIES: Readonly<Record<string, Retry>> = {
  typescript: { reread: separateSignatures },
  c: { reread: firstBranches, keeps: "function_definition" },
  cpp: { reread: firstBranches, keeps: "function_definition" },
};

/** The tree of `retried` when it has fewer errors (and no fewer `keeps`) than `tree`, else `tree`; the other is deleted. */
function fewerErrors(parser: Parser, tree: Tree, retried: string, keeps?: string): Tree {
  let again: Tree | null = null;
  try {
    again = parser.parse(retried);
  } catch (error) {
    // After an abort nothing of the parser's memory, this tree included, can be used.
    if (isParserAbort(error)) throw error;
    // The first tree is still of use; the caller deletes it.
  }
  if (!again) return tree;
  const kept = (of: Tree) => (keeps ? of.rootNode.descendantsOfType(keeps).length : 0);
  if (errorCount(again) < errorCount(tree) && kept(again) >= kept(tree)) {
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

/**
 * C and C++ as a compiler sees them with each conditional's first branch taken:
 * the `#if`/`#ifdef`/`#else`/`#endif` lines and every later branch (`#elif`,
 * `#else`) blanked, and an `#if 0` branch blanked in favour of the next. Braces
 * split across branches (`} else {` under `#ifdef X`, a function opened twice
 * under `#ifdef _WIN32` / `#else`) leave tree-sitter's C grammar with an error
 * that can swallow the functions after it. Blanks keep every line and column.
 */
export function firstBranches(source: string): string {
  if (!source.includes("#")) return source;
  const lines = source.split("\n");
  // For each open conditional: whether the branch being read is kept, and whether one was.
  const open: { keeping: boolean; kept: boolean }[] = [];
  const keeping = () => open.every((level) => level.keeping);
  let changed = false;
  let continued = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const directive: RegExpExecArray | null = continued ? null : CONDITIONAL.exec(line);
    let blank = continued || !keeping();
    if (directive) {
      blank = true;
      const word = directive[1] as string;
      if (word.startsWith("if")) {
        const never = word === "if" && NEVER.test(line);
        open.push({ keeping: !never, kept: !never });
      } else if (word === "endif") {
        open.pop();
      } else {
        const level = open.at(-1);
        if (level) {
          level.keeping = !level.kept;
          level.kept = true;
        }
      }
    }
    continued = (directive !== null || continued) && line.trimEnd().endsWith("\\");
    if (blank && line.trim() !== "") {
      lines[index] = line.replace(/[^\s]/g, " ");
      changed = true;
    }
  }
  return changed ? lines.join("\n") : source;
}

/** A conditional's line: `#if`, `#ifdef`, `#ifndef`, `#elif`, `#elifdef`, `#else`, `#endif`. */
const CONDITIONAL = /^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b/;
/** `#if 0` (`#if (0)`, `#if 0 // old`): a branch no compiler reads. */
const NEVER = /^\s*#\s*if\s*\(?\s*0\s*\)?\s*($|\/[/*])/;

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
