import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { WordVocabulary } from "../core/token-counter.js";
import { o200kTable } from "./o200k-table.js";
import { WORD_HASH_START, wordHashEnd, wordHashStep } from "./word-hash.js";

/** Written by `npm run build` beside the compiled module (scripts/write-o200k-table.mjs). */
export const WORDS_FILE = fileURLToPath(new URL("./o200k-words.bin", import.meta.url));

const MAGIC = 0x5730324b; // "K20W"
const SPACE = 32;

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * A set of word hashes in one typed array (open addressing, linear probing):
 * it is asked about every word of every indexed line, where a Set was slow.
 */
class WordHashSet implements WordVocabulary {
  private readonly mask: number;

  /** `slots` holds hash + 1 per occupied slot, 0 elsewhere; its length is a power of two. */
  constructor(readonly slots: Int32Array) {
    this.mask = slots.length - 1;
  }

  static of(hashes: readonly number[]): WordHashSet {
    let capacity = 1024;
    while (capacity < hashes.length * 2) capacity *= 2;
    const slots = new Int32Array(capacity);
    const mask = capacity - 1;
    for (const hash of hashes) {
      let slot = hash & mask;
      while (slots[slot] !== 0 && slots[slot] !== hash + 1) slot = (slot + 1) & mask;
      slots[slot] = hash + 1;
    }
    return new WordHashSet(slots);
  }

  hasWord(hash: number): boolean {
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const stored = this.slots[slot] as number;
      if (stored === 0) return false;
      if (stored === hash + 1) return true;
    }
  }
}

/** The all-letter tokens of o200k, alone ("Geometry") or after a space (" function"), as word hashes. */
function wordsOfTable(): WordHashSet {
  const table = o200kTable();
  const hashes: number[] = [];
  for (let rank = 0; rank < table.size; rank++) {
    const length = table.tokenLength(rank);
    const from = table.tokenByte(rank, 0) === SPACE ? 1 : 0;
    if (length === from) continue;
    let hash = WORD_HASH_START;
    let letters = true;
    for (let i = from; i < length && letters; i++) {
      const code = table.tokenByte(rank, i);
      letters = isAsciiLetter(code);
      hash = wordHashStep(hash, code);
    }
    if (letters) hashes.push(wordHashEnd(hash));
  }
  return WordHashSet.of(hashes);
}

/** The vocabulary as the file `wordsFile` reads back. */
export function wordsFile(words: WordVocabulary): Uint8Array {
  const { slots } = words as WordHashSet;
  const file = new Int32Array(slots.length + 2);
  file[0] = MAGIC;
  file[1] = slots.length;
  file.set(slots, 2);
  return new Uint8Array(file.buffer);
}

/** A vocabulary saved by `wordsFile`, or null for anything else. */
export function readWordsFile(file: Uint8Array): WordVocabulary | null {
  if (file.byteLength < 8 || file.byteLength % 4 !== 0) return null;
  const words =
    file.byteOffset % 4 === 0
      ? new Int32Array(file.buffer, file.byteOffset, file.byteLength / 4)
      : new Int32Array(new Uint8Array(file).buffer);
  const capacity = words[1] as number;
  const powerOfTwo = capacity > 0 && (capacity & (capacity - 1)) === 0;
  if (words[0] !== MAGIC || !powerOfTwo || words.length !== capacity + 2) return null;
  return new WordHashSet(words.subarray(2));
}

let vocabulary: WordVocabulary | null = null;

/**
 * o200k's all-letter tokens as a word vocabulary, once per thread: the file
 * saved at build time (~1 ms to read), else built from the token table (~20 ms,
 * which a refresh of one changed file paid before every query).
 */
export function o200kWords(): WordVocabulary {
  if (vocabulary) return vocabulary;
  vocabulary = (existsSync(WORDS_FILE) && readSaved()) || wordsOfTable();
  return vocabulary;
}

/** Builds the vocabulary from the token table, ignoring any saved file. */
export function o200kWordsFromTable(): WordVocabulary {
  return wordsOfTable();
}

function readSaved(): WordVocabulary | null {
  try {
    return readWordsFile(readFileSync(WORDS_FILE));
  } catch {
    return null;
  }
}
