import { QUERY_STOPWORDS } from "./stopwords.js";

/** A word character outside ASCII: a letter or digit in any script (underscore is ASCII). */
const WIDE_WORD_CHAR = /^[\p{L}\p{N}]$/u;
/** Sub-words of an identifier: acronyms, Capitalised or lower runs, digit runs, other scripts. */
const SUB_WORD =
  /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|[\p{Lo}\p{Lm}\p{Lt}\p{M}]+/gu;
/** Longer runs are hashes, base64 or minified noise, not words anyone searches for. */
const MAX_TERM_LENGTH = 48;

const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const JOIN = 4;
const HYPHEN = 5;
const WIDE = 6;

/** Classes of the first 128 code points; 0 ends a word. */
const ASCII_CLASS = new Uint8Array(128).map((_, code) => {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code === 95) return JOIN;
  if (code === 45) return HYPHEN;
  return 0;
});

function classAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 128) return ASCII_CLASS[code] as number;
  if (Number.isNaN(code)) return 0;
  const point = text.codePointAt(index) as number;
  return WIDE_WORD_CHAR.test(String.fromCodePoint(point)) ? WIDE : 0;
}

/** UTF-16 length of the character at `index` (2 for a surrogate pair). */
function widthAt(text: string, index: number): number {
  return (text.codePointAt(index) as number) > 0xffff ? 2 : 1;
}

/**
 * Splits text into index terms the way code is searched: every identifier is kept
 * whole and, when it is compound (camelCase, PascalCase, snake_case, kebab-case,
 * digits), also as its parts; all lower-cased. `getHTTPResponse2` gives
 * `gethttpresponse2 get http response 2`; `retry-config` gives
 * `retryconfig retry config`.
 *
 * Words are runs of letters, digits and underscores in any script, joined by
 * single hyphens (`[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*`); indexing spends much of
 * its time here, so ASCII is scanned by hand and only words outside ASCII use
 * the Unicode expressions.
 */
export function indexTerms(text: string, into: string[] = []): string[] {
  const length = text.length;
  let i = 0;
  while (i < length) {
    let kind = classAt(text, i);
    if (kind === 0 || kind === HYPHEN) {
      i += kind === 0 && text.charCodeAt(i) >= 128 ? widthAt(text, i) : 1;
      continue;
    }
    const start = i;
    let ascii = true;
    let uppers = 0;
    let lowers = 0;
    let digits = 0;
    let joins = 0;
    const firstUpper = kind === UPPER;
    while (i < length) {
      kind = classAt(text, i);
      if (kind === HYPHEN) {
        // A hyphen joins two runs; one with no word character after it ends the word.
        const next = i + 1 < length ? classAt(text, i + 1) : 0;
        if (next === 0 || next === HYPHEN) break;
        joins++;
        i++;
        continue;
      }
      if (kind === 0) break;
      if (kind === WIDE) {
        ascii = false;
        i += widthAt(text, i);
        continue;
      }
      if (kind === LOWER) lowers++;
      else if (kind === UPPER) uppers++;
      else if (kind === DIGIT) digits++;
      else joins++;
      i++;
    }
    if (i - start > MAX_TERM_LENGTH) continue;
    const word = text.slice(start, i);
    if (!ascii) {
      pushCompound(word, into);
      continue;
    }
    // A word with nothing that could start a second sub-word: [a-z]+, [A-Z][a-z]*, [0-9]+.
    const simple =
      joins === 0 &&
      ((digits === 0 && (uppers === 0 || (uppers === 1 && firstUpper))) ||
        (uppers === 0 && lowers === 0));
    if (simple) {
      into.push(uppers === 0 ? word : word.toLowerCase());
      continue;
    }
    pushAsciiCompound(word, joins, into);
  }
  return into;
}

/** A compound ASCII word: its whole form, then its parts when it has more than one. */
function pushAsciiCompound(word: string, joins: number, into: string[]): void {
  const lower = word.toLowerCase();
  const whole = joins === 0 ? lower : lower.replace(/[-_]/g, "");
  if (whole.length === 0) return;
  into.push(whole);
  const parts: string[] = [];
  const length = word.length;
  let i = 0;
  while (i < length) {
    const kind = ASCII_CLASS[word.charCodeAt(i)] as number;
    let end = i + 1;
    if (kind === UPPER) {
      while (end < length && ASCII_CLASS[word.charCodeAt(end)] === UPPER) end++;
      const lowerFollows = end < length && ASCII_CLASS[word.charCodeAt(end)] === LOWER;
      if (lowerFollows && end - i >= 2) {
        // An acronym before a Capitalised part: "HTTPResponse" → "HTTP", then "Response".
        end--;
      } else if (lowerFollows) {
        while (end < length && ASCII_CLASS[word.charCodeAt(end)] === LOWER) end++;
      }
    } else if (kind === LOWER || kind === DIGIT) {
      while (end < length && ASCII_CLASS[word.charCodeAt(end)] === kind) end++;
    } else {
      i = end;
      continue;
    }
    parts.push(lower.slice(i, end));
    i = end;
  }
  // A word that is one sub-word ("_private", "HTTP") adds nothing beyond its whole form.
  if (parts.length > 1) into.push(...parts);
}

/** The same for a word with characters outside ASCII, by the Unicode definitions. */
function pushCompound(word: string, into: string[]): void {
  const whole = word.replace(/[-_]/g, "").toLowerCase();
  if (whole.length === 0) return;
  into.push(whole);
  const parts = Array.from(word.matchAll(SUB_WORD), (part) => part[0].toLowerCase());
  if (parts.length > 1) into.push(...parts);
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
