import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { CtxError } from "../core/errors.js";

const require = createRequire(import.meta.url);

/** Written by `npm run build` beside the compiled module (scripts/write-o200k-table.mjs). */
export const TABLE_FILE = fileURLToPath(new URL("./o200k-table.bin", import.meta.url));

const MAGIC = 0x4b323030; // "002K"
const HEADER_WORDS = 4;
const FNV_START = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * o200k's tokens by their UTF-8 bytes, looked up by a range of a string (ASCII)
 * or of a byte array: BPE asks for the rank of every pair it could merge, and
 * slicing a string for each ask (what a Map needs) cost more than the merging.
 * Open addressing over one typed array; a hit is confirmed byte by byte, so it
 * is exact. Built from gpt-tokenizer's ranks, and saved as one file at build
 * time: parsing gpt-tokenizer's ranks took each thread ~150 ms, reading the
 * file takes ~2.
 */
export class O200kTable {
  private readonly mask: number;

  private constructor(
    /** Start of each rank's bytes in `bytes`; `offsets[rank + 1]` is its end. */
    private readonly offsets: Uint32Array,
    /** Rank + 1 of the token hashed to each slot; 0 for an empty slot. */
    private readonly slots: Int32Array,
    private readonly bytes: Uint8Array,
  ) {
    this.mask = slots.length - 1;
  }

  /** Ranks in token order, each as its text or (for tokens that are not UTF-8) its bytes. */
  static fromRanks(ranks: readonly (string | readonly number[])[]): O200kTable {
    const encoder = new TextEncoder();
    const encoded = ranks.map((token) =>
      typeof token === "string" ? encoder.encode(token) : Uint8Array.from(token),
    );
    const offsets = new Uint32Array(encoded.length + 1);
    encoded.forEach((token, rank) => {
      offsets[rank + 1] = (offsets[rank] as number) + token.length;
    });
    const bytes = new Uint8Array(offsets[encoded.length] as number);
    encoded.forEach((token, rank) => {
      bytes.set(token, offsets[rank]);
    });
    let capacity = 1024;
    while (capacity < encoded.length * 2) capacity *= 2;
    const slots = new Int32Array(capacity);
    encoded.forEach((token, rank) => {
      let slot = hashBytes(token, 0, token.length) & (capacity - 1);
      while (slots[slot] !== 0) slot = (slot + 1) & (capacity - 1);
      slots[slot] = rank + 1;
    });
    return new O200kTable(offsets, slots, bytes);
  }

  /** The table saved by `toFile`. */
  static fromFile(file: Uint8Array): O200kTable {
    // Typed arrays over the file need 4-byte alignment; a file read whole has it.
    const aligned = file.byteOffset % 4 === 0 ? file : new Uint8Array(file);
    const base = aligned.byteOffset;
    if (aligned.byteLength < HEADER_WORDS * 4) throw new Error("not an o200k table file");
    const header = new Uint32Array(aligned.buffer, base, HEADER_WORDS);
    const [magic, tokens, slotCount, byteCount] = header as unknown as [
      number,
      number,
      number,
      number,
    ];
    const length = (HEADER_WORDS + tokens + 1 + slotCount) * 4 + byteCount;
    if (magic !== MAGIC || length !== aligned.byteLength)
      throw new Error("not an o200k table file");
    let at = base + HEADER_WORDS * 4;
    const offsets = new Uint32Array(aligned.buffer, at, tokens + 1);
    at += offsets.byteLength;
    const slots = new Int32Array(aligned.buffer, at, slotCount);
    at += slots.byteLength;
    return new O200kTable(offsets, slots, new Uint8Array(aligned.buffer, at, byteCount));
  }

  toFile(): Uint8Array {
    const header = Uint32Array.of(
      MAGIC,
      this.offsets.length - 1,
      this.slots.length,
      this.bytes.length,
    );
    const parts = [header, this.offsets, this.slots, this.bytes].map(
      (part) => new Uint8Array(part.buffer, part.byteOffset, part.byteLength),
    );
    const file = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
      file.set(part, at);
      at += part.length;
    }
    return file;
  }

  get size(): number {
    return this.offsets.length - 1;
  }

  /** Length in bytes of token `rank`. */
  tokenLength(rank: number): number {
    return (this.offsets[rank + 1] as number) - (this.offsets[rank] as number);
  }

  /** Byte `index` of token `rank` (read in place: the vocabulary reads all 200k tokens). */
  tokenByte(rank: number, index: number): number {
    return this.bytes[(this.offsets[rank] as number) + index] as number;
  }

  /** The rank of `text[start..end)`, all ASCII, as one token, or -1 when it is not one. */
  rankOfAscii(text: string, start: number, end: number): number {
    let hash = FNV_START;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
    for (let slot = (hash >>> 0) & this.mask; ; slot = (slot + 1) & this.mask) {
      const stored = this.slots[slot] as number;
      if (stored === 0) return -1;
      if (this.holdsAscii(stored - 1, text, start, end)) return stored - 1;
    }
  }

  /** The rank of `bytes[start..end)` as one token, or -1 when it is not one. */
  rankOfBytes(bytes: Uint8Array, start: number, end: number): number {
    for (let slot = hashBytes(bytes, start, end) & this.mask; ; slot = (slot + 1) & this.mask) {
      const stored = this.slots[slot] as number;
      if (stored === 0) return -1;
      if (this.holdsBytes(stored - 1, bytes, start, end)) return stored - 1;
    }
  }

  private holdsAscii(rank: number, text: string, start: number, end: number): boolean {
    const from = this.offsets[rank] as number;
    if ((this.offsets[rank + 1] as number) - from !== end - start) return false;
    for (let i = start; i < end; i++) {
      if (this.bytes[from + i - start] !== text.charCodeAt(i)) return false;
    }
    return true;
  }

  private holdsBytes(rank: number, bytes: Uint8Array, start: number, end: number): boolean {
    const from = this.offsets[rank] as number;
    if ((this.offsets[rank + 1] as number) - from !== end - start) return false;
    for (let i = start; i < end; i++) {
      if (this.bytes[from + i - start] !== bytes[i]) return false;
    }
    return true;
  }
}

function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = FNV_START;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ (bytes[i] as number), FNV_PRIME);
  return hash >>> 0;
}

/**
 * gpt-tokenizer's o200k ranks, the source of the table. gpt-tokenizer is a
 * devDependency: an installed ctx reads the table the build saved instead.
 */
export function o200kRanks(): (string | number[])[] {
  try {
    return (require("gpt-tokenizer/cjs/bpeRanks/o200k_base") as { default: (string | number[])[] })
      .default;
  } catch (error) {
    throw new CtxError(
      "install_damaged",
      `${TABLE_FILE} (o200k's token table) is missing or damaged and gpt-tokenizer, which could rebuild it, is not installed: reinstall context-engine (${(error as Error).message.split("\n")[0]})`,
    );
  }
}

let table: O200kTable | null = null;

/** o200k's table for this thread: the built file, or (running from sources) built from the ranks. */
export function o200kTable(): O200kTable {
  if (table) return table;
  table = (existsSync(TABLE_FILE) && readTableFile()) || O200kTable.fromRanks(o200kRanks());
  return table;
}

/** The built file, or null where it cannot be read (it is only a faster way to the same table). */
function readTableFile(): O200kTable | null {
  try {
    return O200kTable.fromFile(readFileSync(TABLE_FILE));
  } catch {
    return null;
  }
}
