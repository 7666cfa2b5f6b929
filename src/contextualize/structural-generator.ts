import type { ChunkForContext, ContextGenerator } from "../core/context-generator.js";
import type { TokenCounter } from "../core/token-counter.js";
import type { ChunkDraft } from "../core/types.js";
import type { DocumentChunker } from "../ingest/chunk/chunk-document.js";
import { DEFAULT_CHUNK_LIMITS } from "../ingest/chunk/chunk-limits.js";
import { outlineDocument } from "../ingest/document-outline.js";
import { structuralContext } from "../ingest/structural-context.js";
import { guessLanguage } from "./guess-language.js";

/**
 * Contexts from the code's own structure, no model: see structuralContext. When
 * chunks arrive without their place in the document (evaluation units cut
 * elsewhere), the document is chunked here to find the enclosing definitions
 * and the symbols each chunk defines.
 */
export class StructuralContextGenerator implements ContextGenerator {
  readonly name = "structural";
  readonly model = "";
  readonly promptVersion = "structural-v1";
  readonly remote = false;
  /** Made when chunks first arrive unplaced: loading the chunkers (tree-sitter) is not free. */
  private chunker: Promise<DocumentChunker> | undefined;

  constructor(private readonly counter: TokenCounter) {}

  private chunkerOnce(): Promise<DocumentChunker> {
    this.chunker ??= import("../ingest/chunk/chunk-document.js").then(
      ({ DocumentChunker }) => new DocumentChunker(DEFAULT_CHUNK_LIMITS, this.counter, false),
    );
    return this.chunker;
  }

  async contextualizeBatch(
    chunks: readonly ChunkForContext[],
    documentText: string,
  ): Promise<string[]> {
    const placed = chunks.every((chunk) => chunk.kind !== "unit");
    if (placed) {
      const outline = outlineDocument(
        documentText,
        chunks.map((chunk) => chunk.symbol),
      );
      return chunks.map((chunk) => structuralContext(chunk, outline));
    }
    const guess = guessLanguage(documentText);
    const drafts = guess
      ? (await (await this.chunkerOnce()).chunk(`document${guess.extension}`, documentText)).chunks
      : [];
    const outline = outlineDocument(
      documentText,
      drafts.map((draft) => draft.symbol),
    );
    const lines = documentText.split("\n");
    return chunks.map((chunk) => {
      const located = locate(chunk, documentText, lines);
      return structuralContext(
        located ? place(chunk, located, drafts, guess?.language ?? "text") : chunk,
        outline,
      );
    });
  }
}

/** 1-based first and last line of the chunk within the document, or null if it is not found. */
function locate(
  chunk: ChunkForContext,
  text: string,
  lines: readonly string[],
): { start: number; end: number } | null {
  const probe = chunk.content.trimStart().slice(0, 200);
  if (probe.length === 0) return null;
  const at = text.indexOf(probe);
  if (at < 0) return null;
  const start = text.slice(0, at).split("\n").length;
  const end = Math.min(lines.length, start + chunk.content.trim().split("\n").length - 1);
  return { start, end };
}

/** The chunk with the definitions around it and in it, from the document's own chunks. */
function place(
  chunk: ChunkForContext,
  range: { start: number; end: number },
  drafts: readonly ChunkDraft[],
  language: string,
): ChunkForContext {
  const firstCode = drafts.findIndex(
    (draft) => draft.startLine <= range.start && range.start <= draft.endLine,
  );
  const owner = drafts[firstCode];
  const enclosing: string[] = [];
  for (let parent = owner?.parent ?? null, depth = 0; parent !== null && depth < 8; depth++) {
    const draft = drafts[parent];
    if (!draft) break;
    if (draft.symbol) enclosing.push(draft.symbol);
    parent = draft.parent;
  }
  const defines = drafts
    .filter(
      (draft) => draft.startLine >= range.start && draft.startLine <= range.end && draft.symbol,
    )
    .flatMap((draft) => [draft.symbol, ...draft.defines]);
  return {
    ...chunk,
    language,
    kind: owner && owner.kind !== "code" ? owner.kind : chunk.kind,
    symbol: owner?.symbol ?? "",
    enclosing,
    defines: [...new Set(defines)],
  };
}
