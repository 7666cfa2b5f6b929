import type { ContextFragment, DetailDepth } from "../../core/fragment.js";
import { fileFragmentId } from "../../core/fragment-id.js";
import type { GraphFile, GraphNode } from "../../core/graph.js";
import type { StoredLines } from "../../core/stored-lines.js";
import type { TokenCounter } from "../../core/token-counter.js";
import type { ChunkKind } from "../../core/types.js";

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
