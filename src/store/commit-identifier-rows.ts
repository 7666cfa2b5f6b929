import { indexTerms } from "../text/code-tokenizer.js";

/** How both stores keep the identifiers a commit's diff touched, in one text column. */

/** Stored for a sweep: a commit whose diff touched too many identifiers to say anything. */
export const SWEEP = "*";

/** The names of a stored list ("" when the diff touched none). */
export function namesOf(stored: string): string[] {
  return stored === "" ? [] : stored.split(" ");
}

/**
 * Whether a commit message has the word itself: the full-text indexes match
 * stems ("hinting" finds "hint"), which made the associations of rare words
 * common ones (on the commit benchmark, file@8k fell on three repositories of four).
 */
export function messageHasWord(subject: string, body: string, word: string): boolean {
  return indexTerms(`${subject}\n${body}`).includes(word);
}
