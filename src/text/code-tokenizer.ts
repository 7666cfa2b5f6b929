import { QUERY_STOPWORDS } from "./stopwords.js";

/** Words: runs of letters, digits and underscores in any script, hyphen-joined runs included. */
const WORD = /[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*/gu;
/** Sub-words of an identifier: acronyms, Capitalised or lower runs, digit runs, other scripts. */
const SUB_WORD =
  /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|[\p{Lo}\p{Lm}\p{Lt}\p{M}]+/gu;
/** A word with nothing that could start a second sub-word. */
const SIMPLE_WORD = /^(?:[a-z]+|[A-Z][a-z]*|[0-9]+)$/;
/** Longer runs are hashes, base64 or minified noise, not words anyone searches for. */
const MAX_TERM_LENGTH = 48;

/**
 * Splits text into index terms the way code is searched: every identifier is kept
 * whole and, when it is compound (camelCase, PascalCase, snake_case, kebab-case,
 * digits), also as its parts; all lower-cased. `getHTTPResponse2` gives
 * `gethttpresponse2 get http response 2`; `retry-config` gives
 * `retryconfig retry config`.
 */
export function indexTerms(text: string, into: string[] = []): string[] {
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    if (word.length > MAX_TERM_LENGTH) continue;
    if (SIMPLE_WORD.test(word)) {
      into.push(word.toLowerCase());
      continue;
    }
    const whole = word.replace(/[-_]/g, "").toLowerCase();
    if (whole.length === 0) continue;
    into.push(whole);
    let parts = 0;
    const start = into.length;
    for (const part of word.matchAll(SUB_WORD)) {
      into.push(part[0].toLowerCase());
      parts++;
    }
    // A word that is one sub-word ("_private", "HTTP") adds nothing beyond its whole form.
    if (parts === 1) into.length = start;
  }
  return into;
}

/** Index terms joined by spaces: what a full-text column stores. */
export function indexText(text: string): string {
  return indexTerms(text).join(" ");
}

/**
 * Terms of a natural-language or identifier query: index terms without English
 * function words, each once, in first-seen order. A query made only of function
 * words keeps them, so it still matches something.
 */
export function queryTerms(query: string): string[] {
  const all = indexTerms(query);
  const kept = all.filter((term) => !QUERY_STOPWORDS.has(term));
  return [...new Set(kept.length > 0 ? kept : all)];
}
