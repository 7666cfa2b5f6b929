import type { EdgeRows } from "../core/graph.js";
import type { CodeGraph } from "./code-graph.js";
import { compoundIndex } from "./compound-names.js";
import { DEFAULT_WALK, walkTransitions } from "./graph-walk.js";
import { FORMAT, type PackedStamp } from "./packed-graph.js";
import { SectionWriter } from "./packed-sections.js";

/**
 * A built graph as one file of arrays and string tables (its whole-graph rank
 * and reverse edges included, with look-up tables for names, paths and
 * compound names), which a process reads back in the time it takes to read
 * the bytes: no node, file or map is made until a query asks for it. Null
 * when a string could not come back the same (an unpaired surrogate).
 */
export function packGraph(graph: CodeGraph, stamp: PackedStamp): Buffer | null {
  const { nodes, files } = graph;
  const kinds: string[] = [];
  const resources: string[] = [];
  const languages: string[] = [];
  const code = (table: string[], value: string) => {
    const at = table.indexOf(value);
    return at >= 0 ? at : table.push(value) - 1;
  };
  const names = nodes.map((node) => node.name);
  const signatures = nodes.map((node) => node.signature);
  const paths = files.map((file) => file.path);
  if (![names, signatures, paths].every((table) => table.every(isWellFormed))) return null;

  const out = new SectionWriter();
  out.int32(
    "node.file",
    nodes.map((node) => node.file),
  );
  out.int32(
    "node.start",
    nodes.map((node) => node.startLine),
  );
  out.int32(
    "node.end",
    nodes.map((node) => node.endLine),
  );
  out.int32(
    "node.parent",
    nodes.map((node) => node.parent),
  );
  out.uint8(
    "node.kind",
    Uint8Array.from(nodes, (node) => code(kinds, node.kind)),
  );
  out.strings("node.name", names);
  out.strings("node.signature", signatures);
  out.int32(
    "file.resource",
    files.map((file) => code(resources, file.resourceId)),
  );
  out.int32(
    "file.language",
    files.map((file) => code(languages, file.language)),
  );
  out.int32(
    "file.node",
    files.map((file) => file.node),
  );
  out.strings("file.path", paths);
  out.int32("file.definitions.at", offsetsOf(files.map((file) => file.definitions.length)));
  out.int32(
    "file.definitions",
    files.flatMap((file) => file.definitions),
  );
  // Paths in order (a path of several roots: by file), for look-ups by halving.
  const byPath = files.map((_, index) => index).sort((a, b) => compare(paths, a, b) || a - b);
  out.int32("file.by-path", byPath);
  edges(out, "uses", graph.uses);
  edges(out, "used-by", graph.usedBy);
  if (graph.hasCentrality) out.float64("centrality", graph.centrality);
  const walk = walkTransitions(graph, DEFAULT_WALK.backwardScale);
  out.int32("walk.offsets", walk.offsets);
  out.int32("walk.targets", walk.targets);
  out.float64("walk.shares", walk.shares);

  // Every name in order, with its nodes (ascending, as CodeGraph keeps them).
  const named = [...graph.names()].sort(([a], [b]) => textOrder(a, b));
  const nameAt = new Map(named.map(([name], index) => [name, index]));
  out.int32(
    "name.first",
    named.map(([, ids]) => ids[0] as number),
  );
  out.int32("name.nodes.at", offsetsOf(named.map(([, ids]) => ids.length)));
  out.int32(
    "name.nodes",
    named.flatMap(([, ids]) => ids),
  );
  // Compound names by first word, then second (words in order), each list in `names()` order.
  const firsts = [...compoundIndex(graph.names())].sort(([a], [b]) => textOrder(a, b));
  const seconds = firsts.map(([, bySecond]) => [...bySecond].sort(([a], [b]) => textOrder(a, b)));
  out.strings(
    "compound.first",
    firsts.map(([word]) => word),
  );
  out.int32("compound.seconds.at", offsetsOf(seconds.map((lists) => lists.length)));
  out.strings(
    "compound.second",
    seconds.flatMap((lists) => lists.map(([word]) => word)),
  );
  const lists = seconds.flatMap((bySecond) => bySecond.map(([, entries]) => entries));
  out.int32("compound.names.at", offsetsOf(lists.map((entries) => entries.length)));
  out.int32(
    "compound.names",
    lists.flatMap((entries) =>
      entries.map((entry) => nameAt.get(names[entry.nodes[0] as number] as string) as number),
    ),
  );
  out.uint8("reexports", Buffer.from(JSON.stringify(graph.reexports), "utf8"));
  return out.finish({
    format: FORMAT,
    ...stamp,
    nodes: nodes.length,
    files: files.length,
    names: named.length,
    kinds,
    resources,
    languages,
  });
}

function edges(out: SectionWriter, name: string, rows: EdgeRows): void {
  out.int32(`${name}.offsets`, rows.offsets);
  out.int32(`${name}.targets`, rows.targets);
  out.float64(`${name}.weights`, rows.weights);
}

/** Where each of `counts` consecutive runs starts, and where the last ends. */
function offsetsOf(counts: readonly number[]): Int32Array {
  const offsets = new Int32Array(counts.length + 1);
  counts.forEach((count, index) => {
    offsets[index + 1] = (offsets[index] as number) + count;
  });
  return offsets;
}

function compare(paths: readonly string[], a: number, b: number): number {
  return textOrder(paths[a] as string, paths[b] as string);
}

/** Strings in code-unit order, the order `<` compares them by (look-ups halve by it). */
function textOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** No unpaired surrogate: UTF-8 gives the string back unchanged. */
function isWellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}
