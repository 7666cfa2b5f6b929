import type { ChunkDraft } from "../../core/types.js";
import type { ChunkLimits } from "./chunk-limits.js";
import type { LineText } from "./line-text.js";
import type { TokenMeter } from "./token-meter.js";

/**
 * Chunks text with no known structure into windows of whole lines that fit the
 * token limit, each repeating the last `overlapLines` lines of the one before so
 * that a passage cut at a window edge is still found whole in one of them.
 */
export function chunkWindows(text: LineText, limits: ChunkLimits, meter: TokenMeter): ChunkDraft[] {
  const chunks: ChunkDraft[] = [];
  const { maxTokens, overlapLines } = limits;
  let start = 1;
  while (start <= text.count) {
    let end = start;
    let estimate = text.estimate(start, start) + 1;
    while (end < text.count) {
      const cost = text.estimate(end + 1, end + 1) + 1;
      if (estimate + cost > maxTokens) break;
      estimate += cost;
      end++;
    }
    while (end > start && meter.measureLines(text, start, end, maxTokens) > maxTokens) {
      end = start + Math.floor((end - start) / 2);
    }
    const content = text.slice(start, end);
    if (meter.fits(content, maxTokens)) {
      chunks.push(window(start, end, content, meter.measure(content, maxTokens)));
    } else {
      // One line longer than the limit: cut it into pieces by characters.
      for (const piece of meter.cut(content, maxTokens)) {
        // A run of blanks inside the line is nothing to find.
        if (piece.text.trim().length > 0) chunks.push(window(start, end, piece.text, piece.tokens));
      }
    }
    if (end >= text.count) break;
    start = Math.max(start + 1, end + 1 - overlapLines);
  }
  return chunks.filter((chunk) => chunk.content.trim().length > 0 || chunks.length === 1);
}

function window(start: number, end: number, content: string, tokens: number): ChunkDraft {
  return {
    startLine: start,
    endLine: end,
    kind: "window",
    symbol: "",
    parent: null,
    content,
    header: "",
    defines: [],
    tokens,
  };
}
