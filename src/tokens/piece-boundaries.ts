/**
 * Points where o200k's pre-tokenizer always breaks its pieces, whatever comes
 * before: counts on either side of such a point add up to the whole's.
 */

/**
 * Whether o200k's pieces break at `lineStart` (just after a line break, or the
 * text's start): the line has something besides blanks, its first such
 * character is ASCII, and it does not start the line with `/` (which a
 * punctuation piece ending in a line break may swallow). Pieces on either side
 * of such a point never depend on each other.
 */
export function isPieceBoundary(text: string, lineStart: number): boolean {
  let at = lineStart;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code !== 32 && code !== 9) break;
    at++;
  }
  if (at >= text.length) return false;
  const code = text.charCodeAt(at);
  if (code > 127 || code === 10 || code === 11 || code === 12 || code === 13) return false;
  return !(at === lineStart && code === 47);
}

/** The first line start after the text's start where pieces break; null when none does. */
export function firstPieceBoundary(text: string): number | null {
  for (let lineBreak = text.indexOf("\n"); lineBreak >= 0; ) {
    if (isPieceBoundary(text, lineBreak + 1)) return lineBreak + 1;
    lineBreak = text.indexOf("\n", lineBreak + 1);
  }
  return null;
}

/** The last line start after the text's start where pieces break; null when none does. */
export function lastPieceBoundary(text: string): number | null {
  for (let lineBreak = text.lastIndexOf("\n"); lineBreak >= 0; ) {
    if (isPieceBoundary(text, lineBreak + 1)) return lineBreak + 1;
    lineBreak = lineBreak > 0 ? text.lastIndexOf("\n", lineBreak - 1) : -1;
  }
  return null;
}
