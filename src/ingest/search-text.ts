import { chunkChecksum } from "../core/chunk-checksum.js";
import type { ChunkForContext } from "../core/context-generator.js";
import { embedHashOf } from "../core/embed-text.js";
import type { ChunkToStore, SearchText } from "../core/store.js";
import type { ChunkDraft } from "../core/types.js";
import { indexText } from "../text/code-tokenizer.js";
import { outlineDocument } from "./document-outline.js";
import { structuralContext } from "./structural-context.js";

/** Bumped whenever structural contexts change, so stored ones are rewritten. */
export const STRUCTURAL_CONTEXT_KEY = "structural:v1";

export interface DocumentForSearch {
  readonly path: string;
  readonly language: string;
  readonly text: string;
  /** "structural" writes structural contexts; "none" leaves contexts out. */
  readonly contexts: "structural" | "none";
}

/**
 * Turns a document's chunks into what the store indexes: the path, the chunk's
 * symbol with its enclosing symbols and the symbols it defines, its structural
 * context, and its text (continuation header included), each as code-aware
 * index terms.
 */
export function withSearchText(
  document: DocumentForSearch,
  chunks: readonly ChunkDraft[],
): ChunkToStore[] {
  const pathTerms = indexText(document.path);
  const outline =
    document.contexts === "structural"
      ? outlineDocument(
          document.text,
          chunks.map((chunk) => chunk.symbol),
        )
      : null;
  return chunks.map((chunk) => {
    const enclosing = enclosingSymbols(chunks, chunk);
    const context = outline
      ? structuralContext(forContext(document, chunk, enclosing), outline)
      : null;
    return {
      ...chunk,
      hash: chunkChecksum(chunk.content),
      context,
      contextKey: context === null ? null : STRUCTURAL_CONTEXT_KEY,
      contextStatus: context === null ? null : "structural",
      embedHash: embedHashOf(context, chunk.content),
      search: searchText(pathTerms, chunk, enclosing, context),
    };
  });
}

/** The indexed fields of a chunk, given its context. */
export function searchText(
  pathTerms: string,
  chunk: Pick<ChunkDraft, "symbol" | "defines" | "header" | "content">,
  enclosing: readonly string[],
  context: string | null,
): SearchText {
  const body = chunk.header.length > 0 ? `${chunk.header}\n${chunk.content}` : chunk.content;
  return {
    path: pathTerms,
    symbols: indexText([chunk.symbol, ...chunk.defines, ...enclosing].join(" ")),
    context: context ? indexText(context) : "",
    body: indexText(body),
  };
}

export function forContext(
  document: Pick<DocumentForSearch, "path" | "language">,
  chunk: ChunkDraft,
  enclosing: readonly string[],
): ChunkForContext {
  return {
    content: chunk.content,
    path: document.path,
    language: document.language,
    kind: chunk.kind,
    symbol: chunk.symbol,
    enclosing,
    defines: chunk.defines,
    startLine: chunk.startLine,
    endLine: chunk.endLine,
  };
}

/** Symbols of the chunks that enclose this one, innermost first. */
function enclosingSymbols(chunks: readonly ChunkDraft[], chunk: ChunkDraft): string[] {
  const symbols: string[] = [];
  for (let parent = chunk.parent, depth = 0; parent !== null && depth < 8; depth++) {
    const owner = chunks[parent];
    if (!owner) break;
    if (owner.symbol) symbols.push(owner.symbol);
    parent = owner.parent;
  }
  return symbols;
}
