import type { GraphFile, GraphNode } from "../core/graph.js";

/**
 * The innermost definition of a file that spans `line` (its file node when
 * none does); -1 for a file the graph does not have. Shared by the graph built
 * in memory and the one read back packed, which must answer alike.
 */
export function nodeAtLine(
  nodes: readonly GraphNode[],
  files: readonly GraphFile[],
  file: number,
  line: number,
): number {
  const graphFile = files[file];
  if (!graphFile) return -1;
  let best = graphFile.node;
  let bestSpan = Number.POSITIVE_INFINITY;
  for (const id of graphFile.definitions) {
    const node = nodes[id] as GraphNode;
    if (node.startLine > line) break;
    const span = node.endLine - node.startLine;
    if (node.endLine >= line && span <= bestSpan) {
      best = id;
      bestSpan = span;
    }
  }
  return best;
}
