import type { TokenCounter, WordVocabulary } from "../../core/token-counter.js";
import { estimateWithShape, type TextShape } from "../../tokens/estimate-counter.js";
import { DEFAULT_CHUNK_LIMITS } from "./chunk-limits.js";
import type { LineText } from "./line-text.js";

/**
 * Lowest ratio of estimate to exact o200k count seen for any text (1/1.74 on
 * base64 and scrambled prose, measured on three.js, code-dev, scifact and
 * typescript.js): text estimated under limit/1.8 fits for sure.
 */
const SAFE_RATIO = 1.8;

/**
 * The same for summed line costs (`lineCost`), where irregular lines are counted
 * exactly: worst seen 1/1.08 over 27,000 random spans of three.js, code-dev and
 * scifact, and no chunk over its limit on random letter strings, made-up words,
 * braille or CJK (the chunker's property tests), so limit/1.25 keeps a margin.
 */
const SAFE_LINE_RATIO = 1.25;

/**
 * Above this many times the limit, summed line costs mean "too large" without
 * an exact count: on three.js no span estimated at 1.9–2.5 times the limit
 * fitted (0 of 131) and 4 of 78 did at 1.7–1.9. The rare exception is only
 * split when it could have stayed whole.
 */
const SURELY_OVER_RATIO = 2;

/**
 * Characters outside ASCII a text may hold and still be estimated: BPE spends up
 * to a token per UTF-8 byte on rare ones (braille, symbols, CJK), far above the
 * estimate's one and a half per character.
 */
const MAX_WIDE_ESTIMATED = 2;

/** Lines with more of their letters in words the vocabulary does not know are counted exactly. */
const MAX_UNKNOWN_WORD_SHARE = 0.6;

/** Filled by each estimate and read at once; one object, since this runs for every line. */
const shape: TextShape = { letters: 0, vowels: 0, longestRun: 0, wide: 0, unknownLetters: 0 };

/**
 * Text unlike anything the ratios were measured on: more than a few characters
 * outside ASCII, or mostly words the vocabulary does not know (random strings,
 * made-up words) between breaks.
 */
function isUnfamiliar(seen: TextShape): boolean {
  return (
    seen.wide > MAX_WIDE_ESTIMATED ||
    (seen.unknownLetters > seen.letters * MAX_UNKNOWN_WORD_SHARE && seen.longestRun < 40)
  );
}

/**
 * Lines the estimate can be far under: unfamiliar text, long unbroken runs or
 * few vowels (base64, hex, scrambled text).
 */
function isIrregular(seen: TextShape): boolean {
  return (
    isUnfamiliar(seen) ||
    seen.longestRun >= 40 ||
    (seen.letters >= 16 && seen.vowels < seen.letters * 0.25)
  );
}

/** A piece of one over-long line, with its measured tokens. */
export interface LinePiece {
  readonly text: string;
  readonly tokens: number;
}

export class TokenMeter {
  private words: WordVocabulary | null | undefined;
  /**
   * Line costs stop here: a sum of line costs over SURELY_OVER_RATIO times any
   * limit means "too large" without an exact count, so a line of a megabyte
   * with no break (a long identifier, minified code) is not counted whole.
   */
  private readonly lineCostCap: number;

  constructor(
    private readonly exact: TokenCounter,
    /** The largest limit anything is measured against. */
    maxTokens = DEFAULT_CHUNK_LIMITS.maxTokens,
  ) {
    this.lineCostCap = Math.ceil(maxTokens * SURELY_OVER_RATIO) + 1;
  }

  /** Built on first use: a run with nothing to read never loads the vocabulary. */
  private get vocabulary(): WordVocabulary | null {
    if (this.words === undefined) this.words = this.exact.vocabulary?.() ?? null;
    return this.words;
  }

  /** Cost of one line for LineText: the estimate, or the exact count where the estimate can be far under. */
  readonly lineCost = (line: string): number => {
    const estimate = estimateWithShape(line, shape, this.vocabulary);
    return isIrregular(shape) ? this.exactUpTo(line, this.lineCostCap) : estimate;
  };

  /**
   * Tokens of `text`: the estimate when it is safely under `limit`, else the
   * exact count; any number above `limit` means "does not fit".
   */
  measure(text: string, limit: number): number {
    const estimate = estimateWithShape(text, shape, this.vocabulary);
    // SAFE_RATIO already covers base64 and scrambled text, not unfamiliar text.
    const trusted = estimate * SAFE_RATIO <= limit && !isUnfamiliar(shape);
    return trusted ? estimate : this.exactUpTo(text, limit);
  }

  /**
   * `measure` for a piece of one over-long line, counted exactly where it is
   * mostly a long run of words the vocabulary does not know: BPE spends a
   * token per two or three letters of a random identifier, where the estimate
   * (one per four) would let a piece of twice the limit through.
   */
  measurePiece(piece: string, limit: number): number {
    const estimate = estimateWithShape(piece, shape, this.vocabulary);
    const unknownRun =
      shape.longestRun >= 40 && shape.unknownLetters > shape.letters * MAX_UNKNOWN_WORD_SHARE;
    const trusted = estimate * SAFE_RATIO <= limit && !isUnfamiliar(shape) && !unknownRun;
    return trusted ? estimate : this.exactUpTo(piece, limit);
  }

  /** The exact count when at most `limit`, else a number above it. */
  private exactUpTo(text: string, limit: number): number {
    return this.exact.countUpTo ? this.exact.countUpTo(text, limit) : this.exact.count(text);
  }

  /** `measure` for lines start..end of a document, slicing only when an exact count is needed. */
  measureLines(text: LineText, start: number, end: number, limit: number): number {
    const estimate = text.estimate(start, end);
    if (estimate * SAFE_LINE_RATIO <= limit) return estimate;
    if (estimate > limit * SURELY_OVER_RATIO) return limit + 1;
    return this.exactUpTo(text.slice(start, end), limit);
  }

  /** The summed line cost under which lines fit `limit` without an exact count. */
  safeEstimate(limit: number): number {
    return Math.floor(limit / SAFE_LINE_RATIO);
  }

  fits(text: string, limit: number): boolean {
    return this.measure(text, limit) <= limit;
  }

  /**
   * Cuts text with no line breaks to spare (minified code, data) into pieces
   * that fit, each with its tokens, down to single characters (rare ones cost
   * BPE several tokens each), never inside a surrogate pair.
   */
  cut(text: string, budget: number): LinePiece[] {
    const pieces: LinePiece[] = [];
    let size = Math.max(16, budget * 2);
    let rest = text;
    while (rest.length > 0) {
      const end = characterBoundary(rest, Math.min(size, rest.length));
      const piece = rest.slice(0, end);
      const oneCharacter = end <= (isHighSurrogate(rest.charCodeAt(0)) ? 2 : 1);
      const tokens = this.measurePiece(piece, budget);
      if (!oneCharacter && tokens > budget) {
        size = Math.max(1, Math.floor(end / 2));
        continue;
      }
      pieces.push({ text: piece, tokens });
      rest = rest.slice(piece.length);
    }
    return pieces;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** `end`, or the nearest cut at or before it that keeps surrogate pairs whole (at least one character). */
function characterBoundary(text: string, end: number): number {
  if (end >= text.length || !isHighSurrogate(text.charCodeAt(end - 1))) return end;
  return end > 1 ? end - 1 : Math.min(2, text.length);
}
