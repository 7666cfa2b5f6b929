/**
 * The tokens SQLite's FTS5 indexes for a text under the SQLite store's
 * tokenizer (`porter unicode61 remove_diacritics 2`), so that the PostgreSQL
 * store counts the same terms and ranks as the SQLite store does: unicode61
 * splits at anything that is not a letter, a digit or a private-use
 * character, folds case and strips diacritics; the Porter stemmer (FTS5's
 * variant, on UTF-8 bytes) then stems tokens of 3 to 64 bytes.
 */

/** A run of token characters; marks are kept so the fold below can drop diacritics. */
const TOKEN_RUN = /[\p{L}\p{N}\p{Co}][\p{L}\p{N}\p{Co}\p{Mn}]*/gu;
const DIACRITIC = /\p{Mn}/gu;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is everything below 0x80
const NON_ASCII = /[^\u0000-\u007f]/;

/** FTS5 leaves longer (and shorter) tokens as they are. */
const PORTER_MAX_BYTES = 64;
const PORTER_MIN_BYTES = 3;

/** The FTS5 tokens of a text, in order (repeats kept). */
export function fts5Tokens(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.matchAll(TOKEN_RUN)) {
    const folded = fold(match[0]);
    if (folded.length > 0) tokens.push(porterStem(folded));
  }
  return tokens;
}

function fold(token: string): string {
  const lower = token.toLowerCase();
  if (!NON_ASCII.test(lower)) return lower;
  return lower.normalize("NFD").replace(DIACRITIC, "").normalize("NFC");
}

/** FTS5's Porter stemmer, over the token's UTF-8 bytes (other bytes count as consonants). */
export function porterStem(token: string): string {
  const ascii = !NON_ASCII.test(token);
  const bytes = ascii ? null : Buffer.from(token, "utf8");
  const length = bytes ? bytes.length : token.length;
  if (length > PORTER_MAX_BYTES || length < PORTER_MIN_BYTES) return token;
  const word: number[] = bytes ? [...bytes] : Array.from({ length }, (_, i) => token.charCodeAt(i));
  const stemmed = stemBytes(word);
  return bytes ? Buffer.from(stemmed).toString("utf8") : String.fromCharCode(...stemmed);
}

const A = 97;
const E = 101;
const I = 105;
const O = 111;
const U = 117;
const Y = 121;

function isVowel(c: number | undefined, yIsVowel: boolean): boolean {
  return c === A || c === E || c === I || c === O || c === U || (yIsVowel && c === Y);
}

/**
 * Past the first vowel-consonant sequence of `w[from..to)`: the index after its
 * consonant, or 0 when there is none (a measure m > 0 from `from`).
 */
function gobbleVC(
  w: readonly number[],
  from: number,
  to: number,
  previousConsonant: boolean,
): number {
  let consonant = previousConsonant;
  let i = from;
  for (; i < to; i++) {
    consonant = !isVowel(w[i], consonant);
    if (!consonant) break;
  }
  for (i++; i < to; i++) {
    consonant = !isVowel(w[i], consonant);
    if (consonant) return i + 1;
  }
  return 0;
}

type Condition = (w: readonly number[], stem: number) => boolean;

const mGt0: Condition = (w, n) => gobbleVC(w, 0, n, false) !== 0;
const mGt1: Condition = (w, n) => {
  const k = gobbleVC(w, 0, n, false);
  return k !== 0 && gobbleVC(w, k, n, true) !== 0;
};
const mEq1: Condition = (w, n) => {
  const k = gobbleVC(w, 0, n, false);
  return k !== 0 && gobbleVC(w, k, n, true) === 0;
};
/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
const oStar: Condition = (w, n) => {
  const last = w[n - 1];
  if (last === 119 || last === 120 || last === Y) return false;
  let consonant = false;
  let mask = 0;
  for (let i = 0; i < n; i++) {
    consonant = !isVowel(w[i], consonant);
    mask = ((mask << 1) | (consonant ? 1 : 0)) & 7;
  }
  return mask === 5;
};
const mGt1SorT: Condition = (w, n) => (w[n - 1] === 115 || w[n - 1] === 116) && mGt1(w, n);
/** *v*: the stem holds a vowel (y counts after the first letter). */
const hasVowel: Condition = (w, n) => {
  for (let i = 0; i < n; i++) if (isVowel(w[i], i > 0)) return true;
  return false;
};
const always: Condition = () => true;

interface Rule {
  readonly suffix: number[];
  readonly when: Condition;
  readonly to: number[];
}

/** Rules grouped by the suffix's last-but-one letter, tried in order: the first suffix that matches decides. */
type Step = ReadonlyMap<number, readonly Rule[]>;

function step(
  condition: Condition,
  rules: readonly (readonly [string, string, Condition?])[],
): Step {
  const groups = new Map<number, Rule[]>();
  for (const [suffix, to, when] of rules) {
    const key = suffix.charCodeAt(suffix.length - 2);
    const group = groups.get(key) ?? [];
    group.push({ suffix: codes(suffix), to: codes(to), when: when ?? condition });
    groups.set(key, group);
  }
  return groups;
}

function codes(text: string): number[] {
  return Array.from(text, (char) => char.charCodeAt(0));
}

const STEP_2 = step(mGt0, [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["logi", "log"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
]);

const STEP_3 = step(mGt0, [
  ["ical", "ic"],
  ["ness", ""],
  ["icate", "ic"],
  ["iciti", "ic"],
  ["ful", ""],
  ["ative", ""],
  ["alize", "al"],
]);

const STEP_4 = step(mGt1, [
  ["al", ""],
  ["ance", ""],
  ["ence", ""],
  ["er", ""],
  ["ic", ""],
  ["able", ""],
  ["ible", ""],
  ["ant", ""],
  ["ement", ""],
  ["ment", ""],
  ["ent", ""],
  ["ion", "", mGt1SorT],
  ["ou", ""],
  ["ism", ""],
  ["ate", ""],
  ["iti", ""],
  ["ous", ""],
  ["ive", ""],
  ["ize", ""],
]);

const STEP_1B = step(hasVowel, [
  ["eed", "ee", mGt0],
  ["ed", ""],
  ["ing", ""],
]);

const STEP_1B2 = step(always, [
  ["at", "ate"],
  ["bl", "ble"],
  ["iz", "ize"],
]);

function endsWith(w: readonly number[], suffix: readonly number[]): boolean {
  const start = w.length - suffix.length;
  for (let i = 0; i < suffix.length; i++) if (w[start + i] !== suffix[i]) return false;
  return true;
}

/**
 * Applies a step: the first rule whose suffix the word ends with (and is
 * longer than) is the only one tried. Returns the rule taken, if its
 * condition held.
 */
function apply(w: number[], rules: Step): Rule | null {
  const group = rules.get(w[w.length - 2] as number);
  if (!group) return null;
  for (const rule of group) {
    if (w.length <= rule.suffix.length || !endsWith(w, rule.suffix)) continue;
    const stem = w.length - rule.suffix.length;
    if (!rule.when(w, stem)) return null;
    w.splice(stem, rule.suffix.length, ...rule.to);
    return rule;
  }
  return null;
}

function stemBytes(word: number[]): number[] {
  const w = word;
  // Step 1a: plurals.
  if (w[w.length - 1] === 115) {
    const n = w.length;
    if (w[n - 2] === E) {
      if ((n > 4 && w[n - 4] === 115 && w[n - 3] === 115) || (n > 3 && w[n - 3] === I))
        w.length -= 2;
      else w.length -= 1;
    } else if (w[n - 2] !== 115) {
      w.length -= 1;
    }
  }
  // Step 1b: -ed and -ing, then what they leave.
  const taken = apply(w, STEP_1B);
  if (taken && taken.to.length === 0 && !apply(w, STEP_1B2)) {
    const c = w[w.length - 1];
    if (!isVowel(c, false) && c !== 108 && c !== 115 && c !== 122 && c === w[w.length - 2]) {
      w.length -= 1;
    } else if (mEq1(w, w.length) && oStar(w, w.length)) {
      w.push(E);
    }
  }
  // Step 1c: y after a vowel-bearing stem becomes i.
  if (w[w.length - 1] === Y && hasVowel(w, w.length - 1)) w[w.length - 1] = I;
  apply(w, STEP_2);
  apply(w, STEP_3);
  apply(w, STEP_4);
  // Step 5a: a final e.
  if (w[w.length - 1] === E) {
    const n = w.length - 1;
    if (mGt1(w, n) || (mEq1(w, n) && !oStar(w, n))) w.length -= 1;
  }
  // Step 5b: -ll.
  if (w.length > 1 && w[w.length - 1] === 108 && w[w.length - 2] === 108 && mGt1(w, w.length - 1)) {
    w.length -= 1;
  }
  return w;
}
