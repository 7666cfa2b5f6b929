import type { SearchText } from "../core/store.js";
import type { StoredChunk } from "../core/types.js";
import { indexText } from "../text/code-tokenizer.js";
import { searchText } from "./search-text.js";

/** Symbols of the stored chunks that enclose this one, innermost first (as at indexing). */
export function enclosingOf(chunk: StoredChunk, byId: ReadonlyMap<number, StoredChunk>): string[] {
  const symbols: string[] = [];
  for (let parent = chunk.parentId, depth = 0; parent !== null && depth < 8; depth++) {
    const owner = byId.get(parent);
    if (!owner) break;
    if (owner.symbol) symbols.push(owner.symbol);
    parent = owner.parentId;
  }
  return symbols;
}

/** What a stored chunk is indexed as, with `context` in place of its own. */
export function storedSearchText(
  chunk: StoredChunk,
  byId: ReadonlyMap<number, StoredChunk>,
  context: string | null,
): SearchText {
  return searchText(indexText(chunk.path), chunk, enclosingOf(chunk, byId), context);
}

/** What each chunk of one stored document is indexed as, in order: for rebuilding the index. */
export function documentSearchTexts(chunks: readonly StoredChunk[]): SearchText[] {
  const byId = new Map(chunks.map((chunk) => [chunk.id, chunk]));
  return chunks.map((chunk) => storedSearchText(chunk, byId, chunk.context));
}
