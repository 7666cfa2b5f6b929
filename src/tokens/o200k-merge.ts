import { mergedTokensByHeap } from "./o200k-heap-merge.js";
import type { O200kTable } from "./o200k-table.js";

const NO_MERGE = 0x7fffffff;
let starts = new Int32Array(64);
let ranks = new Int32Array(64);
let scratch = new Uint8Array(256);
const encoder = new TextEncoder();

/**
 * Pieces longer than this (UTF-16 units) are merged in consecutive parts of
 * this length, each on its own, as tokenizers bound the pieces they merge: the
 * count stays linear in the text, and the memory a merge needs stays small
 * however long one unbroken run is (a 300 MB identifier). The longest piece
 * seen in real code is a 29,668-byte run of emoji in a test file (node_modules,
 * 139 MB of sources); every piece up to this bound is counted exactly. Past it
 * the count may differ from the tokenizer's at each seam, by the merges that
 * would have crossed it: a token or so per 65,536 characters, far inside the
 * margins chunk sizes keep (none on 140,000 random letters or a run of one
 * letter; gpt-tokenizer, merging whole, took 23 s on the letters).
 */
export const MAX_PIECE_LENGTH = 65_536;

/**
 * Above this many bytes a piece is merged through a heap (n log n): the plain
 * scan below looks at every pair for every merge, quadratic in the piece, and
 * a 100,000-letter identifier took over ten seconds.
 */
const HEAP_MERGE_BYTES = 96;

/**
 * Pieces counted here, with their counts: code repeats them (three.js has 190k
 * pieces that are not one token, 36k of them distinct), and merging costs
 * several rank lookups per byte. Emptied when full; longer pieces are not
 * kept, so the cache never holds much text.
 */
const counted = new Map<string, number>();
const CACHE_SIZE = 50_000;
const MAX_CACHED_LENGTH = 256;

/**
 * Tokens of one pre-tokenized piece (its UTF-8 bytes merged as BPE does),
 * remembered per piece. A piece over the bound stops once its parts pass `limit`.
 */
export function pieceTokens(
  table: O200kTable,
  piece: string,
  limit = Number.POSITIVE_INFINITY,
): number {
  if (piece.length > MAX_PIECE_LENGTH) return boundedPieceTokens(table, piece, limit);
  let tokens = counted.get(piece);
  if (tokens === undefined) {
    tokens = mergePiece(table, piece);
    if (piece.length <= MAX_CACHED_LENGTH) {
      if (counted.size >= CACHE_SIZE) counted.clear();
      counted.set(piece, tokens);
    }
  }
  return tokens;
}

/** A piece over the bound, as the sum of its parts of MAX_PIECE_LENGTH (never splitting a surrogate pair). */
function boundedPieceTokens(table: O200kTable, piece: string, limit: number): number {
  let tokens = 0;
  for (let at = 0; at < piece.length && tokens <= limit; ) {
    let end = Math.min(at + MAX_PIECE_LENGTH, piece.length);
    if (end < piece.length && isHighSurrogate(piece.charCodeAt(end - 1))) end--;
    tokens += mergePiece(table, piece.slice(at, end));
    at = end;
  }
  return tokens;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function mergePiece(table: O200kTable, piece: string): number {
  if (scratch.length < piece.length * 3) scratch = new Uint8Array(piece.length * 3);
  const { written } = encoder.encodeInto(piece, scratch);
  if (table.rankOfBytes(scratch, 0, written) >= 0) return 1;
  return written > HEAP_MERGE_BYTES
    ? mergedTokensByHeap(table, scratch, written)
    : mergedTokens(table, scratch, written);
}

/**
 * Byte pair merging as tiktoken does it: always merge the adjacent pair whose
 * union has the lowest rank (leftmost on ties) until no union is a token.
 */
function mergedTokens(table: O200kTable, bytes: Uint8Array, length: number): number {
  if (starts.length <= length) {
    starts = new Int32Array(length * 2 + 2);
    ranks = new Int32Array(length * 2 + 2);
  }
  for (let i = 0; i <= length; i++) {
    starts[i] = i;
    ranks[i] = i < length - 1 ? pairRank(table, bytes, i, i + 2) : NO_MERGE;
  }
  let boundaries = length + 1;
  while (boundaries > 1) {
    let lowest = NO_MERGE;
    let at = -1;
    for (let i = 0; i < boundaries - 1; i++) {
      const rank = ranks[i] as number;
      if (rank < lowest) {
        lowest = rank;
        at = i;
      }
    }
    if (at < 0) break;
    starts.copyWithin(at + 1, at + 2, boundaries);
    ranks.copyWithin(at, at + 1, boundaries);
    boundaries--;
    ranks[at] =
      at + 2 < boundaries
        ? pairRank(table, bytes, starts[at] as number, starts[at + 2] as number)
        : NO_MERGE;
    if (at > 0) {
      ranks[at - 1] = pairRank(table, bytes, starts[at - 1] as number, starts[at + 1] as number);
    }
  }
  return boundaries - 1;
}

function pairRank(table: O200kTable, bytes: Uint8Array, start: number, end: number): number {
  const rank = table.rankOfBytes(bytes, start, end);
  return rank < 0 ? NO_MERGE : rank;
}
