import { stemOf } from "../text/word-stems.js";

/**
 * A comment that documents code opens with what the code does, in a word:
 * "Retries a request after a 429", "Returns the route for a path". A task
 * asking how requests are retried, or to fix what a function returns,
 * shares that word with the code that does it, where the code merely about
 * the same things (a type holding what is compared) does not. BM25 weighs the
 * word like any other in the chunk; this reads it where it leads.
 */

const LEAD_WORD = /[A-Za-z]+/y;
const SPACE = 32;
const TAB = 9;

/**
 * Whether a comment block in `text` opens with one of the task's words: the
 * first word of the first line with text of each run of comment lines
 * (`//`, `///`, `/** … *\/`, `#`, a docstring's `"""`).
 */
export function opensWithTaskWord(text: string, stems: ReadonlySet<string>): boolean {
  if (stems.size === 0) return false;
  let inComment = false;
  let leadRead = false;
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    let at = start;
    while (at < end && (text.charCodeAt(at) === SPACE || text.charCodeAt(at) === TAB)) at++;
    const afterMarker = commentBody(text, at, end);
    if (afterMarker < 0) {
      inComment = false;
    } else {
      if (!inComment) leadRead = false;
      inComment = true;
      const lead = skipMarkers(text, afterMarker, end);
      if (!leadRead && lead < end) {
        leadRead = true;
        LEAD_WORD.lastIndex = lead;
        const found = LEAD_WORD.exec(text);
        if (found && stems.has(stemOf(found[0]))) return true;
      }
    }
    start = end + 1;
  }
  return false;
}

/** Where a comment line's text starts, past its marker; -1 for a line that is not a comment. */
function commentBody(text: string, at: number, end: number): number {
  const first = text[at];
  const second = text[at + 1];
  if (first === "/" && (second === "/" || second === "*")) return at + 2;
  if (first === "*" && second !== "/") return at + 1;
  if (first === "#" && second !== "!" && second !== "[") return at + 1;
  if ((first === '"' || first === "'") && text.startsWith(first.repeat(3), at) && at + 3 <= end)
    return at + 3;
  return -1;
}

/** Past what is left of a marker (`///`, `/**`, `//!`) and the spaces after it. */
function skipMarkers(text: string, at: number, end: number): number {
  while (at < end && "/*!# \t".includes(text[at] as string)) at++;
  return at;
}
