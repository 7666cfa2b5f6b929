import type { TokenCounter } from "../core/token-counter.js";

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

/**
 * A fast token estimate that errs high, shaped like the pre-tokenizers of BPE
 * vocabularies (o200k, cl100k): a letter run splits where lower case meets upper
 * case ("getHttp" → "get", "Http") and costs a token per four letters; digit
 * runs cost a token per three digits; punctuation a token each; an indent run a
 * token; a character outside ASCII a token and a half.
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  let run = 0;
  let runClass = 0;
  let previous = 0;
  const closeRun = () => {
    if (run === 0) return;
    tokens += runClass === DIGIT ? Math.ceil(run / 3) : runClass === SPACE ? 1 : Math.ceil(run / 4);
    run = 0;
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const kind = code < 128 ? (CLASS[code] as number) : WIDE;
    if (kind === LOWER || kind === UPPER) {
      const continues =
        (runClass === LOWER || runClass === UPPER) &&
        run > 0 &&
        !(kind === UPPER && previous === LOWER);
      if (!continues) {
        closeRun();
        runClass = kind;
      }
      run++;
    } else if (kind === DIGIT || kind === SPACE) {
      if (runClass !== kind) {
        closeRun();
        runClass = kind;
      }
      run++;
    } else {
      closeRun();
      runClass = 0;
      tokens += kind === WIDE ? 1.5 : 1;
    }
    // One space before a word joins that word's token.
    if (
      kind !== SPACE &&
      previous === SPACE &&
      text.charCodeAt(i - 1) === 32 &&
      (i < 2 || text.charCodeAt(i - 2) !== 32)
    ) {
      tokens -= 1;
    }
    previous = kind;
  }
  closeRun();
  return Math.max(0, Math.ceil(tokens));
}

export const estimateCounter: TokenCounter = { name: "estimate", count: estimateTokens };
