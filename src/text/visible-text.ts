/**
 * Text from a repository (file names, contents, symbols, commit messages) shown
 * to an agent or a terminal with the characters that could act unseen made
 * visible: a terminal runs ESC/CSI/OSC sequences and moves its cursor on CR,
 * bidirectional controls reorder what a reader sees (Trojan Source), tag
 * characters carry text no one sees, and a newline in a name would start a line
 * the output never wrote.
 *
 * The notation is JavaScript's: `\r`, `\n` and `\t` by name, other code points
 * up to U+00FF as `\xhh` (`\x1b`), the rest of the BMP as `\uhhhh` (`\u202e`,
 * a lone surrogate `\ud800`), above it `\u{hhhhh}` (`\u{e0041}`), hex in lower
 * case. A backslash already in the text is left as it is: the escapes are for
 * reading, and code is full of backslashes that must stay readable.
 */

/**
 * Hidden in any text: C0 controls but tab and newline (so CR too), DEL, C1
 * controls (CSI and OSC are single code points there), the line and paragraph
 * separators, the bidirectional marks, embeddings, overrides and isolates, the
 * noncharacters U+FFFE/U+FFFF, lone surrogates (neither is XML), and the tag
 * characters. Everything else, zero-width joiners of emoji included, stays.
 */
const HIDDEN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff\p{Cs}\u{e0000}-\u{e007f}]/gu;

/** Hidden in a one-line label besides: tab, newline and every other format character (zero-width space, BOM, soft hyphen). */
const HIDDEN_IN_LINE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u2028\u2029\ufffe\uffff\p{Cs}\p{Cf}\u{e0000}-\u{e007f}]/gu;

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeOne(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.codePointAt(0) as number;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\u{${code.toString(16)}}`;
}

/** Multi-line text (file contents, terminal output): newlines and tabs stay, the hidden characters become escapes. */
export function visibleText(text: string): string {
  HIDDEN.lastIndex = 0;
  return HIDDEN.test(text) ? text.replace(HIDDEN, escapeOne) : text;
}

/** One line (a path, a symbol, a commit subject, an author): nothing in it can end the line or hide. */
export function visibleLine(text: string): string {
  HIDDEN_IN_LINE.lastIndex = 0;
  return HIDDEN_IN_LINE.test(text) ? text.replace(HIDDEN_IN_LINE, escapeOne) : text;
}

/**
 * JSON.stringify, with the hidden characters it leaves raw (DEL, C1, the
 * separators and bidirectional controls, U+FFFE/U+FFFF, tags) written as JSON
 * `\uhhhh` escapes: the same value for a parser, and nothing raw for a terminal.
 */
export function jsonText(value: unknown, space?: number): string {
  const text = JSON.stringify(value, null, space) ?? "null";
  HIDDEN.lastIndex = 0;
  return HIDDEN.test(text) ? text.replace(HIDDEN, jsonEscape) : text;
}

function jsonEscape(char: string): string {
  let escaped = "";
  for (let i = 0; i < char.length; i++)
    escaped += `\\u${char.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return escaped;
}
