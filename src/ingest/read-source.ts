import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/**
 * The most of one file that is indexed. Everything a file's text becomes while
 * it is prepared and written (lines, chunks, search text, copies between
 * threads, the store's writes) grows with it, some fifteen times its size in
 * all: a 300 MB file with the size limit raised cost 5.4 GB. Past this, a
 * file is indexed for its first part, cut at a line break, and the run says so.
 */
export const MAX_INDEXED_BYTES = 32 * 1024 * 1024;

/** Bytes hashed per read past the part kept. */
const HASH_BLOCK = 1024 * 1024;

/** A cut looks this far back for a line break before it cuts inside the last line. */
const LINE_BREAK_SEARCH = 1024 * 1024;

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

export interface SourceRead {
  /** The part to index: the whole file, or its first `maxBytes` at most, cut after a line break. */
  readonly bytes: Buffer;
  /** Bytes the file held (what was hashed). */
  readonly size: number;
  /** sha1 of the whole file, so a change past the cut is still a change. */
  readonly hash: string;
}

/**
 * Reads a source file to index: all of it up to `maxBytes`, and past that only
 * its hash, one block at a time, so a huge file never sits in memory whole.
 * Reads what the file held when opened (a file still being written stops
 * there). Null when it cannot be opened or is not a regular file.
 */
export function readSource(path: string, maxBytes = MAX_INDEXED_BYTES): SourceRead | null {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch {
    return null;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return null;
    const hash = createHash("sha1");
    const kept = Buffer.allocUnsafe(Math.min(stats.size, maxBytes));
    let keptBytes = readInto(fd, kept, kept.length);
    hash.update(kept.subarray(0, keptBytes));
    let size = keptBytes;
    if (keptBytes === kept.length && stats.size > kept.length) {
      const block = Buffer.allocUnsafe(Math.min(HASH_BLOCK, stats.size - size));
      while (size < stats.size) {
        const read = readSync(fd, block, 0, Math.min(block.length, stats.size - size), null);
        if (read === 0) break;
        hash.update(block.subarray(0, read));
        size += read;
      }
      if (size > keptBytes) keptBytes = cutPoint(kept, keptBytes);
    }
    return { bytes: kept.subarray(0, keptBytes), size, hash: hash.digest("hex") };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Reads until `length` bytes are in `into` or the file ends; returns how many. */
function readInto(fd: number, into: Buffer, length: number): number {
  let total = 0;
  while (total < length) {
    const read = readSync(fd, into, total, length - total, null);
    if (read === 0) break;
    total += read;
  }
  return total;
}

/**
 * Where to cut `length` bytes of a file that goes on: after the last line
 * break near the end, else before the last character that may not be whole
 * (never inside a UTF-8 sequence, which would make the text read as Latin-1).
 */
export function cutPoint(bytes: Uint8Array, length: number): number {
  const from = Math.max(0, length - LINE_BREAK_SEARCH);
  const lineBreak = bytes.subarray(from, length).lastIndexOf(10);
  if (lineBreak >= 0) return from + lineBreak + 1;
  let end = length;
  // Back over continuation bytes (10xxxxxx) to the lead byte, which starts a character.
  while (end > 0 && end > length - 4 && ((bytes[end - 1] as number) & 0xc0) === 0x80) end--;
  if (end > 0 && (bytes[end - 1] as number) >= 0xc0) end--;
  return end;
}
