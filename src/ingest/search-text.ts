import type { ChunkToStore } from "../core/store.js";
import type { ChunkDraft } from "../core/types.js";
import { indexText } from "../text/code-tokenizer.js";

/**
 * Turns a document's chunks into what the store indexes: the path, the chunk's
 * symbol with its enclosing symbols and the symbols it defines, and its text
 * (continuation header included), each as code-aware index terms.
 */
export function withSearchText(path: string, chunks: readonly ChunkDraft[]): ChunkToStore[] {
  const pathTerms = indexText(path);
  return chunks.map((chunk) => {
    const symbols: string[] = [chunk.symbol, ...chunk.defines];
    for (let parent = chunk.parent, depth = 0; parent !== null && depth < 8; depth++) {
      const owner = chunks[parent];
      if (!owner) break;
      symbols.push(owner.symbol);
      parent = owner.parent;
    }
    const body = chunk.header.length > 0 ? `${chunk.header}\n${chunk.content}` : chunk.content;
    return {
      ...chunk,
      search: {
        path: pathTerms,
        symbols: indexText(symbols.join(" ")),
        context: "",
        body: indexText(body),
      },
    };
  });
}
