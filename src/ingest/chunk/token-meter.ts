import type { TokenCounter } from "../../core/token-counter.js";
import { estimateTokens } from "../../tokens/estimate-counter.js";
import type { LineText } from "./line-text.js";

/**
 * On code, prose and even base64 or scrambled text the estimate is never below
 * 1/1.8 of the exact o200k count (measured on three.js, code-dev, scifact and
 * typescript.js: worst 1/1.74), so text estimated under limit/1.8 fits for sure.
 */
export const SAFE_RATIO = 1.8;

/**
 * Measures chunk sizes quickly but never lets one pass the limit: text whose
 * estimate could be within reach of the limit is counted exactly, so the exact
 * count is paid only where it can change a decision.
 */
export class TokenMeter {
  constructor(private readonly exact: TokenCounter) {}

  estimate(text: string): number {
    return estimateTokens(text);
  }

  /**
   * Tokens of `text`: the estimate when it is safely under `limit`, else the
   * exact count; any number above `limit` means "does not fit".
   */
  measure(text: string, limit: number, estimate = estimateTokens(text)): number {
    if (estimate * SAFE_RATIO <= limit) return estimate;
    return this.exact.countUpTo ? this.exact.countUpTo(text, limit) : this.exact.count(text);
  }

  /** `measure` for lines start..end of a document, slicing only when an exact count is needed. */
  measureLines(text: LineText, start: number, end: number, limit: number): number {
    const estimate = text.estimate(start, end);
    if (estimate * SAFE_RATIO <= limit) return estimate;
    return this.measure(text.slice(start, end), limit, estimate);
  }

  /** The estimate under which text fits `limit` without an exact count. */
  safeEstimate(limit: number): number {
    return Math.floor(limit / SAFE_RATIO);
  }

  fits(text: string, limit: number): boolean {
    return this.measure(text, limit) <= limit;
  }

  /** Cuts text with no line breaks to spare (minified code, data) into pieces that fit. */
  cut(text: string, budget: number): string[] {
    const pieces: string[] = [];
    let size = Math.max(16, budget * 2);
    let rest = text;
    while (rest.length > 0) {
      const piece = rest.slice(0, size);
      if (!this.fits(piece, budget) && size > 16) {
        size = Math.max(16, Math.floor(size / 2));
        continue;
      }
      pieces.push(piece);
      rest = rest.slice(piece.length);
    }
    return pieces;
  }
}
