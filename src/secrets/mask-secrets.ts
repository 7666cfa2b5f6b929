import { findSecrets } from "./find-secrets.js";
import type { SecretRange } from "./secret-patterns.js";

export const MASK = "[REDACTED]";

/** A text with secrets masked, and how many spans were. */
export interface MaskedText {
  readonly text: string;
  readonly masked: number;
}

/**
 * The text with every secret the detectors find replaced by `[REDACTED]`,
 * whole: secretlint's recommended rules plus the formats they miss (see
 * find-secrets.ts). The path, when known, selects file-specific rules.
 */
export async function maskSecrets(text: string, path?: string): Promise<MaskedText> {
  return maskRanges(text, await findSecrets(text, path));
}

/** A chunk as the document's masking needs it: its text and its first line there. */
export interface ChunkInDocument {
  readonly content: string;
  /** 1-based. */
  readonly startLine: number;
}

/**
 * A document and its chunks masked for a model: secrets are found in the
 * whole document, and each chunk loses every part of them it holds, so a key
 * split across two chunks is masked in both (neither half alone looks like a
 * key). A chunk is also checked on its own, which covers one whose text is
 * not found in the document.
 */
export async function maskDocumentAndChunks(
  document: string,
  chunks: readonly ChunkInDocument[],
  path?: string,
): Promise<{ document: MaskedText; chunks: MaskedText[] }> {
  const ranges = await findSecrets(document, path);
  const lineStarts = lineOffsets(document);
  const masked = await Promise.all(
    chunks.map(async (chunk) => {
      const own = await findSecrets(chunk.content, path);
      const offset = locate(document, chunk, lineStarts);
      if (offset === null) return maskRanges(chunk.content, own);
      const end = offset + chunk.content.length;
      const shifted = ranges
        .filter((range) => range.start < end && range.end > offset)
        .map((range) => ({ ...range, start: range.start - offset, end: range.end - offset }));
      return maskRanges(chunk.content, [...own, ...shifted]);
    }),
  );
  return { document: maskRanges(document, ranges), chunks: masked };
}

/** The text with the ranges (any order, overlapping, reaching past either end) masked. */
export function maskRanges(text: string, ranges: readonly SecretRange[]): MaskedText {
  const spans = ranges
    .map((range) => [Math.max(0, range.start), Math.min(text.length, range.end)] as const)
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  if (spans.length === 0) return { text, masked: 0 };
  let out = "";
  let cursor = 0;
  let count = 0;
  for (const [start, end] of spans) {
    if (end <= cursor) continue;
    if (start >= cursor) {
      out += text.slice(cursor, start) + MASK;
      count++;
    }
    // An overlapping span extends the one already masked.
    cursor = end;
  }
  return { text: out + text.slice(cursor), masked: count };
}

/** Where the chunk's text starts in the document: at its first line, or anywhere after. */
function locate(document: string, chunk: ChunkInDocument, lineStarts: number[]): number | null {
  const from = lineStarts[chunk.startLine - 1] ?? 0;
  if (document.startsWith(chunk.content, from)) return from;
  // A piece of an over-long line starts inside it.
  const after = document.indexOf(chunk.content, from);
  if (after >= 0) return after;
  const anywhere = document.indexOf(chunk.content);
  return anywhere >= 0 ? anywhere : null;
}

function lineOffsets(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  return starts;
}
