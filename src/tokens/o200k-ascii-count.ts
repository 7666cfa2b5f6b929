import { pieceTokens } from "./o200k-merge.js";
import type { O200kTable } from "./o200k-table.js";

const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
/** The space character: the only blank o200k's punctuation piece may start with. */
const SPACE = 4;
/** Tab, vertical tab, form feed: blanks that are not line breaks. */
const BLANK = 5;
const NEWLINE = 6;
/** Everything else in ASCII: punctuation, symbols, control characters. */
const PUNCT = 7;

const SLASH = 47;
const APOSTROPHE = 39;

/** Character classes of ASCII as o200k's split pattern sees them (JavaScript's `\s` for blanks). */
const CLASS = new Uint8Array(128).map((_, code) => {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code === 32) return SPACE;
  if (code === 9 || code === 11 || code === 12) return BLANK;
  if (code === 10 || code === 13) return NEWLINE;
  return PUNCT;
});

function classAt(text: string, index: number): number {
  return CLASS[text.charCodeAt(index)] as number;
}

function isLetter(kind: number): boolean {
  return kind === LOWER || kind === UPPER;
}

function isBlank(kind: number): boolean {
  return kind === SPACE || kind === BLANK || kind === NEWLINE;
}

/**
 * Exact o200k token count of `text[start..end)`, which must be all ASCII and end
 * where o200k's pieces end (the text's end, or a line start that begins a piece).
 * Splits into the pieces of o200k's pattern by hand, then merges each piece the
 * way tiktoken does; stops early once the count passes `limit`.
 */
export function countAsciiRange(
  table: O200kTable,
  text: string,
  start: number,
  end: number,
  limit: number,
): number {
  let tokens = 0;
  let at = start;
  while (at < end && tokens <= limit) {
    const pieceEnd = nextPieceEnd(text, at, end);
    tokens +=
      pieceEnd - at === 1 || table.rankOfAscii(text, at, pieceEnd) >= 0
        ? 1
        : pieceTokens(table, text.slice(at, pieceEnd), limit - tokens);
    at = pieceEnd;
  }
  return tokens;
}

/**
 * Where the piece starting at `at` ends, by o200k's pattern restricted to ASCII:
 *   [^\r\n\p{L}\p{N}]?\p{Lu}*\p{Ll}+('s|'t|'re|'ve|'m|'ll|'d)?   (and \p{Lu}+\p{Ll}*…)
 *   | \p{N}{1,3} | ' '?[^\s\p{L}\p{N}]+[\r\n/]* | \s*[\r\n]+ | \s+(?!\S) | \s+
 */
function nextPieceEnd(text: string, at: number, end: number): number {
  const kind = classAt(text, at);
  if (isLetter(kind)) return wordEnd(text, at, end);
  if (kind === DIGIT) {
    let digits = at + 1;
    while (digits < end && digits < at + 3 && classAt(text, digits) === DIGIT) digits++;
    return digits;
  }
  const next = at + 1 < end ? classAt(text, at + 1) : 0;
  // Anything but a line break or a digit may lead a word (" value", ".x", "_id").
  if (kind !== NEWLINE && isLetter(next)) return wordEnd(text, at + 1, end);
  if (kind === PUNCT || (kind === SPACE && next === PUNCT)) {
    let piece = at + 1;
    while (piece < end && classAt(text, piece) === PUNCT) piece++;
    while (piece < end) {
      const code = text.charCodeAt(piece);
      if (code !== SLASH && CLASS[code] !== NEWLINE) break;
      piece++;
    }
    return piece;
  }
  // A blank run: up to its last line break if it has one; else all of it at the
  // end of the text, or all but its last blank (which joins what follows).
  let run = at;
  let lastBreak = -1;
  while (run < end) {
    const runKind = classAt(text, run);
    if (!isBlank(runKind)) break;
    if (runKind === NEWLINE) lastBreak = run;
    run++;
  }
  if (lastBreak >= 0) return lastBreak + 1;
  if (run === end) return end;
  return run - at >= 2 ? run - 1 : at + 1;
}

/** End of a word starting with the letter at `at`: capitals, then lower case, then a contraction. */
function wordEnd(text: string, at: number, end: number): number {
  let word = at;
  while (word < end && classAt(text, word) === UPPER) word++;
  while (word < end && classAt(text, word) === LOWER) word++;
  if (word + 1 >= end || text.charCodeAt(word) !== APOSTROPHE) return word;
  // Lower-casing by bit 5 maps only the matching capitals onto these letters.
  const first = text.charCodeAt(word + 1) | 0x20;
  if (first === 115 || first === 100 || first === 109 || first === 116) return word + 2; // s d m t
  if (word + 2 >= end) return word;
  const second = text.charCodeAt(word + 2) | 0x20;
  const pair =
    (first === 108 && second === 108) || // ll
    (first === 118 && second === 101) || // ve
    (first === 114 && second === 101); // re
  return pair ? word + 3 : word;
}
