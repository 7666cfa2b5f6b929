import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The longest ASCII token of o200k has 128 characters; longer ranges are never one token. */
const MAX_TOKEN_LENGTH = 128;

const FNV_START = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * The ranks of o200k's ASCII tokens, looked up by a range of a string: BPE asks
 * for the rank of every pair it could merge, and slicing a string for each ask
 * (what a Map lookup needs) cost more than the merging. Open addressing over one
 * typed array; a hit is confirmed character by character, so it is exact.
 */
export class AsciiRankTable {
  private readonly slots: Int32Array;
  private readonly mask: number;

  private constructor(private readonly tokens: readonly (string | unknown)[]) {
    let ascii = 0;
    for (const token of tokens) if (isAsciiToken(token)) ascii++;
    let capacity = 1024;
    while (capacity < ascii * 2) capacity *= 2;
    this.slots = new Int32Array(capacity);
    this.mask = capacity - 1;
    tokens.forEach((token, rank) => {
      if (!isAsciiToken(token)) return;
      let slot = hashRange(token, 0, token.length) & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = rank + 1;
    });
  }

  /** o200k's table, built once per thread from the ranks gpt-tokenizer ships (~20 ms). */
  static o200k(): AsciiRankTable {
    table ??= new AsciiRankTable(
      (require("gpt-tokenizer/cjs/bpeRanks/o200k_base") as { default: unknown[] }).default,
    );
    return table;
  }

  /** The rank of `text[start..end)` as one token, or -1 when it is not one. */
  rank(text: string, start: number, end: number): number {
    const length = end - start;
    if (length > MAX_TOKEN_LENGTH) return -1;
    for (let slot = hashRange(text, start, end) & this.mask; ; slot = (slot + 1) & this.mask) {
      const stored = this.slots[slot] as number;
      if (stored === 0) return -1;
      const token = this.tokens[stored - 1] as string;
      if (token.length === length && sameCharacters(token, text, start)) return stored - 1;
    }
  }
}

let table: AsciiRankTable | null = null;

function isAsciiToken(token: unknown): token is string {
  if (typeof token !== "string" || token.length === 0) return false;
  for (let i = 0; i < token.length; i++) if (token.charCodeAt(i) > 127) return false;
  return true;
}

function hashRange(text: string, start: number, end: number): number {
  let hash = FNV_START;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash >>> 0;
}

function sameCharacters(token: string, text: string, start: number): boolean {
  for (let i = 0; i < token.length; i++) {
    if (token.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  }
  return true;
}
