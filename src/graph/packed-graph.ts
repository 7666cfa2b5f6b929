import type {
  CompoundName,
  EdgeRows,
  GraphFile,
  GraphImport,
  GraphNode,
  LoadedGraph,
  SymbolKind,
} from "../core/graph.js";
import { wholeGraphRank } from "./code-graph.js";
import { compoundParts, inNameOrder } from "./compound-names.js";
import type { GraphParts } from "./graph-builder.js";
import { DEFAULT_WALK, keepWalkTransitions } from "./graph-walk.js";
import { lazyArray } from "./lazy-array.js";
import { nodeAtLine } from "./node-at-line.js";
import { ascending, SectionReader, type StringTable, within } from "./packed-sections.js";

/**
 * Raised when the layout, or how references are resolved to edges, changes:
 * older files are then rebuilt from the index's rows (2: a C# partial type's
 * parts count as one definition, a JavaScript module's import leads to its
 * declaration file and its code, a Python package's `__init__.py` passes on
 * the names it imports).
 */
export const FORMAT = 2;

/** What a packed graph says it is: the index generation it was built at, and the save it came from. */
export interface PackedStamp {
  readonly generation: string;
  readonly id: string;
}

/** The graph a packed file holds, with its stamp; null when it is of another format or damaged. */
export function unpackGraph(file: Buffer): { stamp: PackedStamp; graph: PackedGraph } | null {
  const reader = SectionReader.open(file);
  const header = reader?.header;
  if (!reader || header?.format !== FORMAT) return null;
  const { generation, id, nodes, files, names, kinds, resources, languages } = header;
  if (
    typeof generation !== "string" ||
    typeof id !== "string" ||
    !isCount(nodes) ||
    !isCount(files) ||
    !isCount(names) ||
    !isStrings(kinds) ||
    !isStrings(resources) ||
    !isStrings(languages)
  ) {
    return null;
  }
  try {
    const graph = new PackedGraph(reader, { nodes, files, names, kinds, resources, languages });
    return { stamp: { generation, id }, graph };
  } catch {
    return null;
  }
}

interface Tables {
  readonly nodes: number;
  readonly files: number;
  readonly names: number;
  readonly kinds: readonly string[];
  readonly resources: readonly string[];
  readonly languages: readonly string[];
}

/**
 * A code graph read back from its packed file: the same nodes, files, edges,
 * rank and look-ups as the CodeGraph it was packed from, each node or file
 * made when first read. Every index in the file is checked on reading, so a
 * damaged file is refused rather than read out of its bounds.
 */
export class PackedGraph implements LoadedGraph {
  readonly nodes: readonly GraphNode[];
  readonly files: readonly GraphFile[];
  readonly uses: EdgeRows;
  readonly usedBy: EdgeRows;
  private centralityRank: Float64Array | null;
  private readonly nodeName: StringTable;
  private readonly nameFirst: Int32Array;
  private readonly nameNodesAt: Int32Array;
  private readonly nameNodes: Int32Array;
  private readonly filePath: StringTable;
  private readonly byPath: Int32Array;
  private readonly compoundFirst: StringTable;
  private readonly compoundFirstAt: Int32Array;
  private readonly compoundSecond: StringTable;
  private readonly compoundAt: Int32Array;
  private readonly compoundNames: Int32Array;
  private reexportRows: GraphParts["reexports"] | null = null;

  constructor(
    private readonly reader: SectionReader,
    tables: Tables,
  ) {
    const { nodes: n, files: f, names: d } = tables;
    const nodeFile = within(reader.int32("node.file", n), 0, f, "node.file");
    const start = reader.int32("node.start", n);
    const end = reader.int32("node.end", n);
    const parent = within(reader.int32("node.parent", n), -1, n, "node.parent");
    const kind = reader.uint8("node.kind", n);
    for (let i = 0; i < kind.length; i++) {
      if ((kind[i] as number) >= tables.kinds.length) throw new RangeError("node.kind");
    }
    this.nodeName = reader.strings("node.name", n);
    const signature = reader.strings("node.signature", n);
    this.nodes = lazyArray(n, (id) => ({
      id,
      file: nodeFile[id] as number,
      name: this.nodeName.get(id),
      kind: tables.kinds[kind[id] as number] as SymbolKind | "file",
      startLine: start[id] as number,
      endLine: end[id] as number,
      signature: signature.get(id),
      parent: parent[id] as number,
    }));

    const resource = within(reader.int32("file.resource", f), 0, tables.resources.length, "file");
    const language = within(reader.int32("file.language", f), 0, tables.languages.length, "file");
    const fileNode = within(reader.int32("file.node", f), 0, Math.max(1, n), "file.node");
    this.filePath = reader.strings("file.path", f);
    const definitions = within(reader.int32("file.definitions"), 0, n, "file.definitions");
    const definitionsAt = reader.int32("file.definitions.at", f + 1);
    ascending(definitionsAt, definitions.length, "file.definitions.at");
    this.byPath = within(reader.int32("file.by-path", f), 0, f, "file.by-path");
    this.files = lazyArray(f, (index) => ({
      resourceId: tables.resources[resource[index] as number] as string,
      path: this.filePath.get(index),
      language: tables.languages[language[index] as number] as string,
      node: fileNode[index] as number,
      definitions: Array.from(
        definitions.subarray(definitionsAt[index] as number, definitionsAt[index + 1] as number),
      ),
    }));

    this.uses = readEdges(reader, "uses", n);
    this.usedBy = readEdges(reader, "used-by", n);
    this.centralityRank = reader.has("centrality") ? reader.float64("centrality", n) : null;
    const walk = readEdges(reader, "walk", n, "shares");
    keepWalkTransitions(this, DEFAULT_WALK.backwardScale, {
      offsets: walk.offsets,
      targets: walk.targets,
      shares: walk.weights,
    });

    this.nameFirst = within(reader.int32("name.first", d), 0, n, "name.first");
    this.nameNodes = within(reader.int32("name.nodes"), 0, n, "name.nodes");
    this.nameNodesAt = reader.int32("name.nodes.at", d + 1);
    ascending(this.nameNodesAt, this.nameNodes.length, "name.nodes.at");
    this.compoundFirst = reader.strings("compound.first");
    this.compoundSecond = reader.strings("compound.second");
    this.compoundFirstAt = reader.int32("compound.seconds.at", this.compoundFirst.count + 1);
    ascending(this.compoundFirstAt, this.compoundSecond.count, "compound.seconds.at");
    this.compoundNames = within(reader.int32("compound.names"), 0, d, "compound.names");
    this.compoundAt = reader.int32("compound.names.at", this.compoundSecond.count + 1);
    ascending(this.compoundAt, this.compoundNames.length, "compound.names.at");
  }

  get centrality(): Float64Array {
    this.centralityRank ??= wholeGraphRank(this.uses, this.nodes.length);
    return this.centralityRank;
  }

  get hasCentrality(): boolean {
    return this.centralityRank !== null;
  }

  /** Each file's `export … from` statements (read from the file when first asked for). */
  get reexports(): GraphParts["reexports"] {
    this.reexportRows ??= JSON.parse(this.reader.text("reexports")) as GraphImport[][];
    return this.reexportRows;
  }

  /** Every node and file made, for an update to start from. */
  parts(): GraphParts {
    return {
      nodes: Array.from(this.nodes),
      files: Array.from(this.files),
      uses: this.uses,
      reexports: this.reexports,
    };
  }

  definitionsNamed(name: string): readonly number[] {
    const at = this.nameIndex(name);
    return at < 0 ? [] : this.nodesOfName(at);
  }

  filesAt(path: string): GraphFile[] {
    const found: GraphFile[] = [];
    for (let at = this.firstPathAtLeast(path); at < this.byPath.length; at++) {
      const file = this.byPath[at] as number;
      if (this.filePath.get(file) !== path) break;
      found.push(this.files[file] as GraphFile);
    }
    return found;
  }

  filesUnder(prefix: string): GraphFile[] {
    const folder = prefix.endsWith("/") ? prefix : `${prefix}/`;
    const found: number[] = [];
    // Paths starting with the prefix lie together in path order; the folder's are among them.
    for (let at = this.firstPathAtLeast(prefix); at < this.byPath.length; at++) {
      const file = this.byPath[at] as number;
      const path = this.filePath.get(file);
      if (!path.startsWith(prefix)) break;
      if (path === prefix || path.startsWith(folder)) found.push(file);
    }
    return found.sort((a, b) => a - b).map((file) => this.files[file] as GraphFile);
  }

  nodeAtLine(file: number, line: number): number {
    return nodeAtLine(this.nodes, this.files, file, line);
  }

  *names(): IterableIterator<[string, readonly number[]]> {
    // In the order of each name's first node, as a graph built in memory gives them.
    const order = Array.from(this.nameFirst.keys()).sort(
      (a, b) => (this.nameFirst[a] as number) - (this.nameFirst[b] as number),
    );
    for (const at of order) {
      yield [this.nodeName.get(this.nameFirst[at] as number), this.nodesOfName(at)];
    }
  }

  compoundNamesFirst(first: string, seconds: ReadonlySet<string>): readonly CompoundName[] {
    const at = lowerBound(this.compoundFirst.count, (i) => this.compoundFirst.get(i) < first);
    if (at >= this.compoundFirst.count || this.compoundFirst.get(at) !== first) return [];
    const from = this.compoundFirstAt[at] as number;
    const to = this.compoundFirstAt[at + 1] as number;
    const lists: CompoundName[][] = [];
    for (const second of seconds) {
      const group = from + lowerBound(to - from, (i) => this.compoundSecond.get(from + i) < second);
      if (group < to && this.compoundSecond.get(group) === second)
        lists.push(this.compoundList(group));
    }
    return inNameOrder(lists);
  }

  /** The names of one (first word, second word) list, split into their words. */
  private compoundList(group: number): CompoundName[] {
    const entries: CompoundName[] = [];
    for (
      let e = this.compoundAt[group] as number;
      e < (this.compoundAt[group + 1] as number);
      e++
    ) {
      const nameAt = this.compoundNames[e] as number;
      const nodes = this.nodesOfName(nameAt);
      const parts = compoundParts(
        this.nodeName.get(this.nameFirst[nameAt] as number),
        nodes.length,
      );
      if (parts) entries.push({ parts, nodes });
    }
    return entries;
  }

  private nameIndex(name: string): number {
    const count = this.nameFirst.length;
    const at = lowerBound(count, (i) => this.nodeName.get(this.nameFirst[i] as number) < name);
    return at < count && this.nodeName.get(this.nameFirst[at] as number) === name ? at : -1;
  }

  private nodesOfName(at: number): number[] {
    return Array.from(
      this.nameNodes.subarray(this.nameNodesAt[at] as number, this.nameNodesAt[at + 1] as number),
    );
  }

  private firstPathAtLeast(path: string): number {
    return lowerBound(
      this.byPath.length,
      (i) => this.filePath.get(this.byPath[i] as number) < path,
    );
  }
}

/** The first index in [0, count) where `before` is false (it holds for a prefix of them). */
function lowerBound(count: number, before: (index: number) => boolean): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}

function readEdges(
  reader: SectionReader,
  name: string,
  nodes: number,
  weights = "weights",
): EdgeRows {
  const targets = within(reader.int32(`${name}.targets`), 0, nodes, name);
  const offsets = reader.int32(`${name}.offsets`, nodes + 1);
  ascending(offsets, targets.length, name);
  if (offsets[nodes] !== targets.length) throw new RangeError(name);
  return { offsets, targets, weights: reader.float64(`${name}.${weights}`, targets.length) };
}

function isCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}
