import type { EdgeRows, GraphFile, GraphImport, GraphNode, SymbolKind } from "../core/graph.js";
import type { GraphParts } from "./graph-builder.js";

/** Raised when the format of the stored graph changes: older copies are rebuilt. */
const FORMAT = 2;

interface StoredGraph {
  readonly format: number;
  readonly generation: string;
  readonly nodes: {
    readonly file: number[];
    readonly name: string[];
    readonly kind: (SymbolKind | "file")[];
    readonly startLine: number[];
    readonly endLine: number[];
    readonly signature: string[];
    readonly parent: number[];
  };
  readonly files: GraphFile[];
  readonly reexports: (readonly GraphImport[])[];
  readonly offsets: string;
  readonly targets: string;
  readonly weights: string;
  readonly centrality: string | null;
}

/**
 * A built graph (and its whole-graph rank) as text, to keep beside the index:
 * another process then reads it instead of resolving every reference again.
 */
export function serializeGraph(
  generation: string,
  parts: GraphParts,
  centrality: Float64Array | null,
): string {
  const column = <K extends keyof GraphNode>(key: K) => parts.nodes.map((node) => node[key]);
  const stored: StoredGraph = {
    format: FORMAT,
    generation,
    nodes: {
      file: column("file"),
      name: column("name"),
      kind: column("kind"),
      startLine: column("startLine"),
      endLine: column("endLine"),
      signature: column("signature"),
      parent: column("parent"),
    },
    files: [...parts.files],
    reexports: [...parts.reexports],
    offsets: toBase64(parts.uses.offsets),
    targets: toBase64(parts.uses.targets),
    weights: toBase64(parts.uses.weights),
    centrality: centrality ? toBase64(centrality) : null,
  };
  return JSON.stringify(stored);
}

/** The stored graph with the generation it was built at, or null when the text is of another format or damaged. */
export function parseGraph(
  text: string,
): { generation: string; parts: GraphParts; centrality: Float64Array | null } | null {
  let stored: StoredGraph;
  try {
    stored = JSON.parse(text) as StoredGraph;
  } catch {
    return null;
  }
  if (stored.format !== FORMAT || typeof stored.generation !== "string") return null;
  const { nodes: n } = stored;
  const nodes: GraphNode[] = n.file.map((file, id) => ({
    id,
    file,
    name: n.name[id] ?? "",
    kind: n.kind[id] ?? "file",
    startLine: n.startLine[id] ?? 1,
    endLine: n.endLine[id] ?? 1,
    signature: n.signature[id] ?? "",
    parent: n.parent[id] ?? -1,
  }));
  const uses: EdgeRows = {
    offsets: new Int32Array(fromBase64(stored.offsets)),
    targets: new Int32Array(fromBase64(stored.targets)),
    weights: new Float64Array(fromBase64(stored.weights)),
  };
  if (
    uses.offsets.length !== nodes.length + 1 ||
    uses.targets.length !== uses.weights.length ||
    stored.reexports.length !== stored.files.length
  ) {
    return null;
  }
  const centrality = stored.centrality ? new Float64Array(fromBase64(stored.centrality)) : null;
  return {
    generation: stored.generation,
    parts: { nodes, files: stored.files, uses, reexports: stored.reexports },
    centrality: centrality && centrality.length === nodes.length ? centrality : null,
  };
}

function toBase64(array: Int32Array | Float64Array): string {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString("base64");
}

/** A copy in its own buffer, aligned for any typed array. */
function fromBase64(text: string): ArrayBuffer {
  const bytes = Buffer.from(text, "base64");
  const buffer = new ArrayBuffer(bytes.length);
  new Uint8Array(buffer).set(bytes);
  return buffer;
}
