import type { WordVocabulary } from "../core/token-counter.js";
import { o200kTable } from "./o200k-table.js";
import { WORD_HASH_START, wordHashEnd, wordHashStep } from "./word-hash.js";

const SPACE = 32;

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * A set of word hashes in one typed array (open addressing, linear probing):
 * it is asked about every word of every indexed line, where a Set was slow.
 */
class WordHashSet implements WordVocabulary {
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(hashes: readonly number[]) {
    let capacity = 1024;
    while (capacity < hashes.length * 2) capacity *= 2;
    this.slots = new Int32Array(capacity);
    this.mask = capacity - 1;
    for (const hash of hashes) {
      let slot = hash & this.mask;
      while (this.slots[slot] !== 0 && this.slots[slot] !== hash + 1) slot = (slot + 1) & this.mask;
      this.slots[slot] = hash + 1;
    }
  }

  hasWord(hash: number): boolean {
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const stored = this.slots[slot] as number;
      if (stored === 0) return false;
      if (stored === hash + 1) return true;
    }
  }
}

let vocabulary: WordHashSet | null = null;

/**
 * The all-letter tokens of o200k, alone ("Geometry") or after a space
 * (" function"), as word hashes. Built once per thread (~15 ms) from the table
 * the counter reads anyway.
 */
export function o200kWords(): WordVocabulary {
  if (vocabulary) return vocabulary;
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
  vocabulary = new WordHashSet(hashes);
  return vocabulary;
}
