import type { ContextFragment, DetailDepth } from "../../core/fragment.js";
import { fileFragmentId } from "../../core/fragment-id.js";
import type { GraphFile, GraphNode } from "../../core/graph.js";
import type { TokenCounter } from "../../core/token-counter.js";
import type { ChunkKind, StoredChunk } from "../../core/types.js";

/** Comment and decorator lines that belong to the declaration below them. */
const LEADING_LINE = /^\s*(\/\/|\/\*|\*|#(?!include|define)|@|"""|'''|--|;)/;
const MAX_LEADING_LINES = 12;

/** A file's text as its stored chunks hold it, line by line. */
export class StoredLines {
  private readonly lines = new Map<number, string>();
  private readonly chunks: readonly StoredChunk[];

  constructor(chunks: readonly StoredChunk[]) {
    this.chunks = chunks;
    for (const chunk of chunks) {
      chunk.content.split("\n").forEach((line, index) => {
        this.lines.set(chunk.startLine + index, line);
      });
    }
  }

  has(line: number): boolean {
    return this.lines.has(line);
  }

  /** Lines start..end; a line no chunk holds (a blank between chunks) reads as empty. */
  text(start: number, end: number): string {
    const out: string[] = [];
    for (let line = start; line <= end; line++) out.push(this.lines.get(line) ?? "");
    return out.join("\n");
  }

  chunkIdsIn(start: number, end: number): number[] {
    return this.chunks
      .filter((chunk) => chunk.startLine <= end && chunk.endLine >= start)
      .map((chunk) => chunk.id);
  }

  /** The first line of the comments and decorators right above `line`. */
  leadingStart(line: number): number {
    let start = line;
    while (
      start > 1 &&
      line - start < MAX_LEADING_LINES &&
      this.lines.has(start - 1) &&
      LEADING_LINE.test(this.lines.get(start - 1) ?? "")
    )
      start--;
    return start;
  }
}

/** The line range a definition shows at a depth: whole, its signature with doc comment, or its first line. */
export function definitionRange(
  node: GraphNode,
  depth: DetailDepth,
  lines: StoredLines,
): { start: number; end: number } {
  if (depth === "full") return { start: lines.leadingStart(node.startLine), end: node.endLine };
  if (depth === "outline") return { start: node.startLine, end: node.startLine };
  const signatureLines = Math.max(1, node.signature.split("\n").length);
  return {
    start: lines.leadingStart(node.startLine),
    end: Math.min(node.endLine, node.startLine + signatureLines - 1),
  };
}

export function definitionFragment(
  node: GraphNode,
  file: GraphFile,
  depth: DetailDepth,
  lines: StoredLines,
  score: number,
  strategy: string,
  counter: TokenCounter,
): ContextFragment {
  const { start, end } = definitionRange(node, depth, lines);
  const content = lines.text(start, end);
  return {
    id: fileFragmentId(file.resourceId, file.path, start, end),
    source: {
      kind: "file",
      resourceId: file.resourceId,
      path: file.path,
      startLine: start,
      endLine: end,
      language: file.language,
    },
    content,
    tokens: counter.count(content),
    score,
    strategy,
    tier: "warm",
    nodeId: `${file.resourceId}:${file.path}#${String(node.startLine).padStart(8, "0")}`,
    detailDepth: depth,
    symbol: node.name,
    chunkKind: chunkKindOf(node),
    chunkIds: lines.chunkIdsIn(start, end),
  };
}

function chunkKindOf(node: GraphNode): ChunkKind {
  if (node.kind === "file") return "unit";
  if (node.kind === "constant") return "code";
  return node.kind;
}
