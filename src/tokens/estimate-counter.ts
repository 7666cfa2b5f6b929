import type { TokenCounter, WordVocabulary } from "../core/token-counter.js";
import { WORD_HASH_START, wordHashEnd, wordHashStep } from "./word-hash.js";

const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const SPACE = 4;
const NEWLINE = 5;
const OTHER = 6;
const WIDE = 7;

/** Character classes of the first 128 code points. */
const CLASS = new Uint8Array(128).map((_, code) => {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code === 32 || code === 9) return SPACE;
  if (code === 10 || code === 13) return NEWLINE;
  return OTHER;
});

/** What a scan sees of a text's shape besides its estimate: what tells when the estimate can be trusted. */
export interface TextShape {
  letters: number;
  vowels: number;
  /** Longest unbroken run of base64 characters (letters, digits, `+`, `/`, `=`). */
  longestRun: number;
  /** Characters outside ASCII. */
  wide: number;
  /** Letters in words the vocabulary passed to the estimate does not hold (0 without one). */
  unknownLetters: number;
}

const VOWEL = new Uint8Array(128).map((_, code) =>
  "aeiouyAEIOUY".includes(String.fromCharCode(code)) ? 1 : 0,
);

/**
 * Blank runs wider than this (spaces, a tab counted as eight) cost a token per
 * 128 spaces or 16 tabs, as o200k's longest blank tokens hold: a line of a
 * million spaces or tabs was estimated at one token and became one chunk of a
 * megabyte. Alignment in code stays under it and costs one as before (a run of
 * 256 spaces or 32 tabs is two tokens), so ordinary files chunk as they did.
 */
const LONG_BLANK_WIDTH = 256;

/** Tokens of a blank run of `blank` characters, `tabs` of them tabs, that does not join what follows. */
function blankCost(blank: number, tabs: number): number {
  const width = blank + 7 * tabs;
  return width > LONG_BLANK_WIDTH ? Math.ceil(width / 128) : 1;
}

const scratch: TextShape = { letters: 0, vowels: 0, longestRun: 0, wide: 0, unknownLetters: 0 };

/**
 * A fast token estimate that errs high, shaped like the pre-tokenizers of BPE
 * vocabularies (o200k, cl100k): a letter run splits where lower case meets upper
 * case ("getHttp" → "get", "Http") and costs a token per four letters (an
 * all-capitals run one per three); digit runs cost one per three digits;
 * punctuation one each; a character outside ASCII one and a half. A space or tab
 * just before a letter or punctuation joins that piece; other blank runs cost one,
 * or one per 128 spaces or 16 tabs past LONG_BLANK_WIDTH.
 */
export function estimateTokens(text: string): number {
  return estimateWithShape(text, scratch);
}

/**
 * estimateTokens, also filling `shape`: one pass over the text, since the
 * chunker needs both for every line it reads. Letter runs are cut as BPE
 * pre-tokenizers cut them ("HTTPResponse", "get" + "HTTP"), so they can be
 * looked up in `vocabulary` as words.
 */
export function estimateWithShape(
  text: string,
  shape: TextShape,
  vocabulary: WordVocabulary | null = null,
): number {
  let tokens = 0;
  let run = 0;
  let runClass = 0;
  let upperOnly = true;
  let blank = 0;
  let tabs = 0;
  let letters = 0;
  let vowels = 0;
  let base64Run = 0;
  let longestRun = 0;
  let wide = 0;
  let unknown = 0;
  let word = WORD_HASH_START;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const kind = code < 128 ? (CLASS[code] as number) : WIDE;
    if (kind === LOWER || kind === UPPER) {
      letters++;
      vowels += VOWEL[code] as number;
      base64Run++;
    } else if (kind === DIGIT || code === 43 || code === 47 || code === 61) {
      base64Run++;
    } else {
      if (base64Run > longestRun) longestRun = base64Run;
      base64Run = 0;
      if (kind === WIDE) wide++;
    }
    if (kind === SPACE) {
      tokens += runCost(run, runClass, upperOnly);
      unknown += unknownRun(run, runClass, word, vocabulary);
      run = 0;
      runClass = 0;
      blank++;
      if (code === 9) tabs++;
      continue;
    }
    if (blank > 0) {
      // The last blank joins a following letter or punctuation piece.
      const joins = kind === LOWER || kind === UPPER || kind === OTHER;
      tokens += joins && blank === 1 ? 0 : blankCost(blank, tabs);
      blank = 0;
      tabs = 0;
    }
    if (kind === LOWER || kind === UPPER) {
      const continues =
        (runClass === LOWER || runClass === UPPER) &&
        run > 0 &&
        !(kind === UPPER && runClass === LOWER);
      if (!continues) {
        tokens += runCost(run, runClass, upperOnly);
        unknown += unknownRun(run, runClass, word, vocabulary);
        run = 0;
        upperOnly = true;
        word = WORD_HASH_START;
      }
      if (kind === LOWER) upperOnly = false;
      runClass = kind;
      run++;
      word = wordHashStep(word, code);
    } else if (kind === DIGIT) {
      if (runClass !== DIGIT) {
        tokens += runCost(run, runClass, upperOnly);
        unknown += unknownRun(run, runClass, word, vocabulary);
        run = 0;
      }
      runClass = DIGIT;
      run++;
    } else {
      tokens += runCost(run, runClass, upperOnly) + (kind === WIDE ? 1.5 : 1);
      unknown += unknownRun(run, runClass, word, vocabulary);
      run = 0;
      runClass = 0;
    }
  }
  shape.letters = letters;
  shape.vowels = vowels;
  shape.longestRun = Math.max(longestRun, base64Run);
  shape.wide = wide;
  shape.unknownLetters = unknown + unknownRun(run, runClass, word, vocabulary);
  tokens += runCost(run, runClass, upperOnly) + (blank > 0 ? blankCost(blank, tabs) : 0);
  return Math.ceil(tokens);
}

/** The run's length when it is a word `vocabulary` does not hold, else 0. */
function unknownRun(
  run: number,
  runClass: number,
  word: number,
  vocabulary: WordVocabulary | null,
): number {
  if (vocabulary === null || run === 0 || (runClass !== LOWER && runClass !== UPPER)) return 0;
  return vocabulary.hasWord(wordHashEnd(word)) ? 0 : run;
}

/** Tokens of a run of letters or digits. */
function runCost(run: number, runClass: number, upperOnly: boolean): number {
  if (run === 0) return 0;
  if (runClass === DIGIT) return Math.ceil(run / 3);
  return Math.ceil(run / (upperOnly && run > 1 ? 3 : 4));
}

export const estimateCounter: TokenCounter = { name: "estimate", count: estimateTokens };
