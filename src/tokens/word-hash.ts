/**
 * The hash a run of ASCII letters is looked up by in a WordVocabulary: FNV-1a
 * over its characters, cut to 30 bits (small integers; `hash + 1` fits an
 * Int32Array slot). Fed one character at a time, so a scan needs no strings.
 */
export const WORD_HASH_START = 0x811c9dc5;

export function wordHashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

export function wordHashEnd(hash: number): number {
  return hash & 0x3fffffff;
}
