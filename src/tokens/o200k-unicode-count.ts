import { pieceTokens } from "./o200k-merge.js";
import type { O200kTable } from "./o200k-table.js";

const CONTRACTION = "(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?";

/** o200k's pre-tokenizer pattern (as tiktoken and gpt-tokenizer define it). */
const O200K_PIECES = new RegExp(
  [
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}`,
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
    String.raw`\s*[\r\n]+`,
    String.raw`\s+(?!\S)`,
    String.raw`\s+`,
  ].join("|"),
  "gu",
);

/**
 * Exact o200k count of any text, at least until it passes `limit`: split by
 * o200k's pattern, each piece merged over its UTF-8 bytes. Slower than the
 * ASCII scanner; used for the lines around characters outside ASCII.
 */
export function countUnicode(table: O200kTable, text: string, limit: number): number {
  let tokens = 0;
  for (const match of text.matchAll(O200K_PIECES)) {
    const piece = match[0];
    tokens +=
      piece.length === 1 && piece.charCodeAt(0) < 128
        ? 1
        : pieceTokens(table, piece, limit - tokens);
    if (tokens > limit) break;
  }
  return tokens;
}
