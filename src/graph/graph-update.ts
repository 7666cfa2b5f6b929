import {
  type GraphFile,
  type GraphFileKey,
  type GraphFileRecord,
  type GraphNode,
  graphFileKey,
} from "../core/graph.js";
import { EdgeRowsBuilder } from "./edge-rows.js";
import { GraphBuilder, type GraphParts, pushTo, reexportsOf } from "./graph-builder.js";

/**
 * `previous` brought up to date without resolving every file again: the
 * `written` files take their new rows, the `reread` ones (unchanged, but using
 * a name the written ones now define more or less often than before) resolve
 * their references again, every other file keeps its nodes and edges (an edge
 * to a written file's definition leads to the one of that name in its place).
 * Every edge starts in the file that makes it, and a use reaches definitions
 * by name alone, so the result is the graph a full build gives. Null when
 * files came or went, or a written file's re-exports changed (either changes
 * what other files' imports reach): then build from every file's rows.
 * With `previousRank`, also where the new graph's rank is best computed from.
 */
export function updateGraphParts(
  previous: GraphParts,
  files: readonly GraphFileKey[],
  written: readonly GraphFileRecord[],
  reread: readonly GraphFileRecord[],
  previousRank?: Float64Array,
): { parts: GraphParts; rankFrom: Float64Array | null } | null {
  if (files.length !== previous.files.length) return null;
  const indexOf = new Map<string, number>();
  for (const [index, file] of files.entries()) {
    const before = previous.files[index];
    if (!before || before.path !== file.path || before.resourceId !== file.resourceId) return null;
    indexOf.set(graphFileKey(file), index);
  }
  const recordAt = (records: readonly GraphFileRecord[]) => {
    const at = new Map<number, GraphFileRecord>();
    for (const record of records) {
      const index = indexOf.get(graphFileKey(record));
      if (index === undefined) return null;
      at.set(index, record);
    }
    return at;
  };
  const writtenAt = recordAt(written);
  const rereadAt = recordAt(reread);
  if (!writtenAt || !rereadAt) return null;
  for (const [index, record] of writtenAt) {
    if (JSON.stringify(reexportsOf(record)) !== JSON.stringify(previous.reexports[index] ?? [])) {
      return null;
    }
  }
  const builder = new GraphBuilder(previous.reexports);
  const newId = new Int32Array(previous.nodes.length).fill(-1);
  for (let file = 0; file < files.length; file++) {
    const record = writtenAt.get(file);
    if (!record) {
      builder.copyFile(previous, file, newId);
      continue;
    }
    builder.addFile(record, file);
    // Other files reach a definition by its name: while a name is defined as often as
    // before, its uses elsewhere lead to the new definitions, one for one.
    const before = byName(previous, previous.files[file] as GraphFile);
    const after = byName(builder, builder.files[file] as GraphFile);
    newId[(previous.files[file] as GraphFile).node] = (builder.files[file] as GraphFile).node;
    for (const [name, oldIds] of before) {
      const newIds = after.get(name);
      if (newIds?.length !== oldIds.length) continue;
      oldIds.forEach((oldId, k) => {
        newId[oldId] = newIds[k] ?? -1;
      });
    }
  }
  const edges = new EdgeRowsBuilder(builder.nodes.length);
  for (let file = 0; file < files.length; file++) {
    const record = writtenAt.get(file) ?? rereadAt.get(file);
    if (record) {
      builder.addFileEdges(record, file, edges.add);
      continue;
    }
    const old = previous.files[file] as GraphFile;
    const { offsets, targets, weights } = previous.uses;
    for (const from of [old.node, ...old.definitions]) {
      for (let e = offsets[from] ?? 0; e < (offsets[from + 1] ?? 0); e++) {
        const to = newId[targets[e] ?? -1] ?? -1;
        // An edge into a rewritten file's old definitions: a user that should have been re-read.
        if (to < 0) return null;
        edges.add(newId[from] ?? -1, to, weights[e] ?? 0);
      }
    }
  }
  const parts = builder.parts(edges);
  return { parts, rankFrom: previousRank ? carriedRank(previousRank, newId, parts) : null };
}

/** The old rank at the nodes that stayed, an average node's at new ones, summing to 1. */
function carriedRank(previous: Float64Array, newId: Int32Array, parts: GraphParts): Float64Array {
  const count = parts.nodes.length;
  const rank = new Float64Array(count).fill(1 / Math.max(1, count));
  newId.forEach((id, old) => {
    if (id >= 0) rank[id] = previous[old] ?? 0;
  });
  const sum = rank.reduce((total, value) => total + value, 0);
  return sum > 0 ? rank.map((value) => value / sum) : rank;
}

/** A file's definitions by name, each name's in line order. */
function byName(
  graph: { readonly nodes: readonly GraphNode[] },
  file: GraphFile,
): Map<string, number[]> {
  const names = new Map<string, number[]>();
  for (const id of file.definitions) pushTo(names, (graph.nodes[id] as GraphNode).name, id);
  return names;
}
