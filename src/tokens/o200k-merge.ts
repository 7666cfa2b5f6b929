import type { O200kTable } from "./o200k-table.js";

const NO_MERGE = 0x7fffffff;
let starts = new Int32Array(64);
let ranks = new Int32Array(64);
let scratch = new Uint8Array(256);
const encoder = new TextEncoder();

/**
 * Pieces counted here, with their counts: code repeats them (three.js has 190k
 * pieces that are not one token, 36k of them distinct), and merging costs
 * several rank lookups per byte. Emptied when full.
 */
const counted = new Map<string, number>();
const CACHE_SIZE = 50_000;

/** Tokens of one pre-tokenized piece (its UTF-8 bytes merged as BPE does), remembered per piece. */
export function pieceTokens(table: O200kTable, piece: string): number {
  let tokens = counted.get(piece);
  if (tokens === undefined) {
    if (scratch.length < piece.length * 3) scratch = new Uint8Array(piece.length * 3);
    const { written } = encoder.encodeInto(piece, scratch);
    tokens =
      table.rankOfBytes(scratch, 0, written) >= 0 ? 1 : mergedTokens(table, scratch, written);
    if (counted.size >= CACHE_SIZE) counted.clear();
    counted.set(piece, tokens);
  }
  return tokens;
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
