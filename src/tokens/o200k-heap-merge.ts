import type { O200kTable } from "./o200k-table.js";

/** Ranks are below 2^21 and byte offsets below 2^32: both fit one double exactly as rank·2^32 + offset. */
const OFFSET_SPAN = 2 ** 32;

/** Start of the part after each part (by its first byte); `length` after the last. */
let next = new Int32Array(0);
/** Start of the part before each part; -1 before the first. */
let previous = new Int32Array(0);
/** Rank of each part joined with the next one; -1 when that is no token, or the part is gone. */
let pairRanks = new Int32Array(0);
/** Candidate merges, rank·2^32 + the left part's start: the least is the lowest rank, leftmost. */
let heap = new Float64Array(0);
let heapSize = 0;

/**
 * Byte pair merging as tiktoken does it (merge the adjacent pair whose union
 * has the lowest rank, leftmost on ties, until no union is a token), with the
 * candidates in a heap and the parts in a linked list: n log n where scanning
 * every pair for each merge is quadratic. Entries left in the heap by a merge
 * are skipped when they come up: a pair's rank names its bytes, so an entry is
 * current exactly when its part still has that rank with its neighbour.
 */
export function mergedTokensByHeap(table: O200kTable, bytes: Uint8Array, length: number): number {
  if (next.length < length) {
    next = new Int32Array(length);
    previous = new Int32Array(length);
    pairRanks = new Int32Array(length);
  }
  // Each merge adds at most two candidates to the first length - 1.
  if (heap.length < length * 3) heap = new Float64Array(length * 3);
  heapSize = 0;
  for (let i = 0; i < length; i++) {
    next[i] = i + 1;
    previous[i] = i - 1;
    pairRanks[i] = i + 2 <= length ? table.rankOfBytes(bytes, i, i + 2) : -1;
    if ((pairRanks[i] as number) >= 0) push((pairRanks[i] as number) * OFFSET_SPAN + i);
  }
  let parts = length;
  while (heapSize > 0) {
    const top = pop();
    const rank = Math.floor(top / OFFSET_SPAN);
    const left = top - rank * OFFSET_SPAN;
    if (pairRanks[left] !== rank) continue;
    // Join the part after `left` into it.
    const right = next[left] as number;
    const after = next[right] as number;
    next[left] = after;
    if (after < length) previous[after] = left;
    pairRanks[right] = -1;
    parts--;
    pairRanks[left] = after < length ? table.rankOfBytes(bytes, left, next[after] as number) : -1;
    if ((pairRanks[left] as number) >= 0) push((pairRanks[left] as number) * OFFSET_SPAN + left);
    const before = previous[left] as number;
    if (before >= 0) {
      pairRanks[before] = table.rankOfBytes(bytes, before, after);
      if ((pairRanks[before] as number) >= 0) {
        push((pairRanks[before] as number) * OFFSET_SPAN + before);
      }
    }
  }
  return parts;
}

function push(key: number): void {
  let at = heapSize++;
  while (at > 0) {
    const parent = (at - 1) >> 1;
    const above = heap[parent] as number;
    if (above <= key) break;
    heap[at] = above;
    at = parent;
  }
  heap[at] = key;
}

function pop(): number {
  const top = heap[0] as number;
  const last = heap[--heapSize] as number;
  let at = 0;
  for (;;) {
    let child = 2 * at + 1;
    if (child >= heapSize) break;
    const right = child + 1;
    if (right < heapSize && (heap[right] as number) < (heap[child] as number)) child = right;
    if ((heap[child] as number) >= last) break;
    heap[at] = heap[child] as number;
    at = child;
  }
  heap[at] = last;
  return top;
}
