import { stemmer } from "stemmer";
import { QUERY_STOPWORDS } from "../text/stopwords.js";

/**
 * A comment that documents code opens with what the code does, in a word:
 * "Retries a request after a 429", "Returns the route for a path". A task
 * asking how requests are retried, or to fix what a function returns,
 * shares that word with the code that does it, where the code merely about
 * the same things (a type holding what is compared) does not. BM25 weighs the
 * word like any other in the chunk; this reads it where it leads.
 */

let lastTask: { task: string; stems: ReadonlySet<string> } | null = null;

/**
 * The task's words as stems, function words left out: the same set for the
 * same task, so the strategies of one request share what they read with it.
 */
export function taskStems(task: string): ReadonlySet<string> {
  if (lastTask?.task === task) return lastTask.stems;
  const stems = new Set<string>();
  for (const word of task.toLowerCase().match(/[a-z]{3,}/g) ?? []) {
    if (!QUERY_STOPWORDS.has(word)) stems.add(stemmer(word));
  }
  lastTask = { task, stems };
  return stems;
}

/**
 * Stems of the words comments open with, kept: stemming was most of the
 * signal's cost (at 100,000 chunks 1.7 ms a query; 0.3–0.8 ms with the stems
 * kept and each hit read once), and a few hundred distinct words make most
 * of any project's.
 */
const leadStems = new Map<string, string>();
const MAX_LEAD_STEMS = 20_000;

export function stemOf(word: string): string {
  let stem = leadStems.get(word);
  if (stem === undefined) {
    if (leadStems.size >= MAX_LEAD_STEMS) leadStems.clear();
    stem = stemmer(word.toLowerCase());
    leadStems.set(word, stem);
  }
  return stem;
}

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
