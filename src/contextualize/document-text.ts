import type { StoredChunk } from "../core/types.js";

/**
 * A document's text put back together from its stored chunks, line by line
 * (overlapping windows write the same lines twice; pieces of one over-long line
 * are joined), so contexts are written for exactly what was indexed.
 */
export function documentTextFromChunks(chunks: readonly StoredChunk[]): string {
  const lines: string[] = [];
  let lastPieceLine = -1;
  for (const chunk of chunks) {
    const parts = chunk.content.split("\n");
    const isPiece =
      chunk.startLine === chunk.endLine && parts.length === 1 && chunk.content.length > 0;
    if (isPiece && lastPieceLine === chunk.startLine) {
      lines[chunk.startLine - 1] = (lines[chunk.startLine - 1] ?? "") + chunk.content;
      continue;
    }
    parts.forEach((line, offset) => {
      lines[chunk.startLine - 1 + offset] = line;
    });
    lastPieceLine = isPiece ? chunk.startLine : -1;
  }
  return Array.from(lines, (line) => line ?? "").join("\n");
}
