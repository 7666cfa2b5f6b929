import { queryTerms } from "./code-tokenizer.js";

/**
 * A title longer than this is a paragraph that happens to come first, not a
 * title: over the commit benchmark's and the issue set's 616 tasks of several
 * lines, first lines held 6 terms at the median and 20 at most.
 */
const MAX_TITLE_TERMS = 24;
/** How many times a title counts, at least and at most. */
const LEAST_TITLE_COUNT = 2;
const MOST_TITLE_COUNT = 4;
/** "Task:", "Bug report:": a first line that introduces what follows rather than saying what it is about. */
const LABEL = /^[^\p{L}\p{N}]*[\p{L}\p{N}_-]+(?:\s+[\p{L}\p{N}_-]+)?\s*:\s*$/u;

/**
 * What a keyword search for a task asks: the task's terms, then its title's
 * terms again, so that they count more in BM25 (FTS5 and the PostgreSQL
 * backend score a term asked twice twice). A commit's or an issue's first
 * line names what it is about; the body adds reproduce steps, versions and
 * logs whose many words otherwise outweigh it, the more so the longer it is.
 * A task of one line has no title apart from itself and is searched as before.
 */
export function taskSearchTerms(task: string): string[] {
  const own = queryTerms(task);
  return [...own, ...repeatedTitleTerms(task, own)];
}

/**
 * The first line's terms among the task's own, repeated so that the title
 * counts √(task terms / title terms) times, rounded, 2–4: a commit message
 * with a line of body counts it twice, an issue of ten times its title's
 * words three times. Chosen among a fixed count of 2, 3 or 4 and this, leaving
 * each of the twenty repositories of the commit benchmark and the issue set
 * out in turn (every fold chose this); none for a task of one line.
 */
export function repeatedTitleTerms(
  task: string,
  /** The task's terms, when the caller has them already. */
  own: readonly string[] = queryTerms(task),
): string[] {
  const first = taskTitle(task);
  if (first === task) return [];
  const ownSet = new Set(own);
  const title = queryTerms(first).filter((term) => ownSet.has(term));
  if (title.length === 0 || title.length > MAX_TITLE_TERMS) return [];
  const count = Math.min(
    MOST_TITLE_COUNT,
    Math.max(LEAST_TITLE_COUNT, Math.round(Math.sqrt(own.length / title.length))),
  );
  return Array.from({ length: count - 1 }, () => title).flat();
}

/**
 * What a task says it is about: its first line when it has several (a
 * commit's or an issue's title) unless that line only introduces the rest
 * ("Task:"), else the whole task. The kinds of file a task
 * asks for are read off it: an issue's body says "Version: 1.8.15", "jest" and
 * "npm install" in passing, which ask for no settings or tests (over the commit
 * benchmark and the issue set, reading them off the title raised eleven of the
 * twelve file@/line@ figures by 0.1–0.9, the twelfth equal; no repository's
 * fell by more than 0.2).
 */
export function taskTitle(task: string): string {
  const lines = task.split("\n").filter((line) => line.trim() !== "");
  const [first] = lines;
  if (lines.length < 2 || first === undefined || LABEL.test(first)) return task;
  return first;
}
