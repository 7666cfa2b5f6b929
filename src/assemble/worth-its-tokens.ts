import { COMMENT_LINE } from "./detail-depth.js";

/**
 * Fragments this small are shown only when they hold a line of real code:
 * below it a fragment is a single short line, which tells a reader something
 * only when it names code (`internal static Context None() => [];`), never
 * when it is punctuation, a comment, a heading or a file's preamble.
 */
export const SMALL_FRAGMENT_TOKENS = 8;

/** Markdown headings and HTML comments, besides the comment lines of code. */
const MARKUP_LINE = /^\s*(#{1,6}\s|<!--)/;
/** A file's preamble: it says where the code lives, not what it does. */
const PREAMBLE =
  /^\s*((namespace|package|import|using|use|require|include|from|module|extern\s+crate|#\s*include)\b|library\s+[\w.]+;|part\s+(of\s+)?['"]|["']use strict["'])/;
/** A name a reader can look up: two or more characters, a letter or `_`/`$` first. */
const IDENTIFIER = /[A-Za-z_$][\w$]+/;
const QUOTED = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g;

/**
 * Whether a fragment of `tokens` tokens is worth a place in an answer: any
 * fragment above the small size is; a small one needs a code line naming
 * something outside a string (a `{`, `/*!`, `'use strict'`, `namespace X;` or
 * `## Defaults` alone is not).
 */
export function worthItsTokens(content: string, tokens: number): boolean {
  if (tokens > SMALL_FRAGMENT_TOKENS) return true;
  for (const line of content.split("\n")) {
    if (COMMENT_LINE.test(line) || MARKUP_LINE.test(line) || PREAMBLE.test(line)) continue;
    if (IDENTIFIER.test(line.replace(QUOTED, ""))) return true;
  }
  return false;
}
