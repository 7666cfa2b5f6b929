/** What a structural context draws from a whole document. */
export interface DocumentOutline {
  /** First sentence of the document's leading doc comment, docstring or heading; "" when none. */
  readonly summary: string;
  /** Identifiers the document imports. */
  readonly imports: ReadonlySet<string>;
  /** Symbols the document defines (from its chunks). */
  readonly symbols: ReadonlySet<string>;
}

const IMPORT_LINE =
  /^\s*(import|from|use|using|#\s*include|require|require_relative|extern crate)\b/;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;
const IMPORT_KEYWORDS = new Set([
  "import",
  "from",
  "use",
  "using",
  "include",
  "require",
  "require_relative",
  "as",
  "static",
  "type",
  "typeof",
  "crate",
  "self",
  "super",
  "extern",
  "std",
  "java",
  "javax",
  "System",
  "mod",
  "pub",
  "default",
]);
const LICENSE = /copyright|license|spdx|all rights reserved/i;
const MAX_SUMMARY = 200;

/** Reads the summary and imports of a document once, for all of its chunks. */
export function outlineDocument(text: string, symbols: Iterable<string> = []): DocumentOutline {
  const lines = text.split("\n", 400);
  const imports = new Set<string>();
  for (const line of lines) {
    if (!IMPORT_LINE.test(line)) continue;
    // Module paths in quotes ("../core/store.js") are not names the code uses.
    for (const match of line.replace(/(["'`]).*?\1/g, " ").matchAll(IDENTIFIER)) {
      if (!IMPORT_KEYWORDS.has(match[0]) && match[0].length > 1) imports.add(match[0]);
    }
  }
  return {
    summary: leadingSummary(lines),
    imports,
    symbols: new Set([...symbols].filter((s) => s.length > 0)),
  };
}

/**
 * The first sentence of the comment block or module docstring that opens the
 * file (after a shebang, `<?php` or package line; licence headers skipped). A
 * comment after the imports documents the next declaration, not the file.
 */
function leadingSummary(lines: readonly string[]): string {
  let index = 0;
  while (index < lines.length) {
    const line = (lines[index] ?? "").trim();
    const preamble =
      line === "" ||
      line.startsWith("#!") ||
      line.startsWith("<?php") ||
      /^package\s/.test(line) ||
      /^["']use strict["'];?$/.test(line);
    if (preamble) {
      index++;
      continue;
    }
    const block = commentBlock(lines, index);
    if (!block) return "";
    if (LICENSE.test(block.text)) {
      index = block.next;
      continue;
    }
    return firstSentence(block.text);
  }
  return "";
}

function commentBlock(
  lines: readonly string[],
  start: number,
): { text: string; next: number } | null {
  const first = (lines[start] ?? "").trim();
  const parts: string[] = [];
  if (first.startsWith("/*")) {
    let index = start;
    for (; index < lines.length; index++) {
      const line = (lines[index] ?? "").trim();
      parts.push(line.replace(/^\/\*\*?|\*\/$|^\*\s?/g, "").trim());
      if (line.includes("*/")) break;
    }
    return { text: parts.join(" "), next: index + 1 };
  }
  for (const marker of ['"""', "'''"]) {
    if (!first.startsWith(marker)) continue;
    let index = start;
    for (; index < lines.length; index++) {
      const line = (lines[index] ?? "").trim();
      parts.push(line.replaceAll(marker, "").trim());
      if (index > start ? line.includes(marker) : line.length > 3 && line.endsWith(marker)) break;
    }
    return { text: parts.join(" "), next: index + 1 };
  }
  const prefix = ["//!", "///", "//", "#", "--", ";;"].find((candidate) =>
    first.startsWith(candidate),
  );
  if (!prefix) return null;
  let index = start;
  for (; index < lines.length; index++) {
    const line = (lines[index] ?? "").trim();
    if (!line.startsWith(prefix)) break;
    parts.push(
      line
        .slice(prefix.length)
        .replace(/^[!/#\s]+/, "")
        .trim(),
    );
  }
  return { text: parts.join(" "), next: index };
}

/** A comment's first sentence, its `@tags` left out, cut at `MAX_SUMMARY` characters. */
export function firstSentence(text: string): string {
  const clean = text
    .replace(/\s+/g, " ")
    .replace(/@\w+.*$/, "")
    .trim();
  const end = clean.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? clean.slice(0, end + 1) : clean;
  return sentence.length > MAX_SUMMARY ? `${sentence.slice(0, MAX_SUMMARY - 1)}…` : sentence;
}
