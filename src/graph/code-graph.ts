import type {
  CompoundName,
  EdgeRows,
  GraphFile,
  GraphFileRecord,
  GraphNode,
  LoadedGraph,
} from "../core/graph.js";
import { type CompoundIndex, compoundIndex, inNameOrder } from "./compound-names.js";
import { reverseRows } from "./edge-rows.js";
import { buildGraphParts, type GraphParts, pushTo } from "./graph-builder.js";
import { nodeAtLine } from "./node-at-line.js";
import { pageRank } from "./page-rank.js";

const CENTRALITY_DAMPING = 0.85;

/**
 * The whole code graph in memory, with the look-ups strategies and the repo
 * map use; reverse edges and the whole-graph rank are computed on first use.
 */
export class CodeGraph implements LoadedGraph {
  readonly nodes: readonly GraphNode[];
  readonly files: readonly GraphFile[];
  /** Out-edges: from user to used. */
  readonly uses: EdgeRows;
  readonly reexports: GraphParts["reexports"];
  private readonly byName = new Map<string, number[]>();
  private readonly byPath = new Map<string, number[]>();
  private usedByRows: EdgeRows | null = null;
  private compounds: CompoundIndex | null = null;
  private centralityRank: Float64Array | null;

  /**
   * `centrality`: the whole-graph rank when known; else `rankFrom`, a rank close
   * to it (the graph's before a small change), is where computing it starts.
   */
  constructor(
    parts: GraphParts,
    centrality: Float64Array | null = null,
    private readonly rankFrom?: Float64Array,
  ) {
    this.nodes = parts.nodes;
    this.files = parts.files;
    this.uses = parts.uses;
    this.reexports = parts.reexports;
    this.centralityRank = centrality;
    for (const node of this.nodes) {
      if (node.kind !== "file") pushTo(this.byName, node.name, node.id);
    }
    this.files.forEach((file, index) => {
      pushTo(this.byPath, file.path, index);
    });
  }

  static fromRecords(records: readonly GraphFileRecord[]): CodeGraph {
    return new CodeGraph(buildGraphParts(records));
  }

  /** In-edges, the reverse of `uses`: from used to user. */
  get usedBy(): EdgeRows {
    this.usedByRows ??= reverseRows(this.uses);
    return this.usedByRows;
  }

  get centrality(): Float64Array {
    this.centralityRank ??= wholeGraphRank(this.uses, this.nodes.length, this.rankFrom);
    return this.centralityRank;
  }

  /** Whether the whole-graph rank has been computed (and is worth keeping). */
  get hasCentrality(): boolean {
    return this.centralityRank !== null;
  }

  definitionsNamed(name: string): readonly number[] {
    return this.byName.get(name) ?? [];
  }

  filesAt(path: string): GraphFile[] {
    return (this.byPath.get(path) ?? []).map((file) => this.files[file] as GraphFile);
  }

  names(): IterableIterator<[string, readonly number[]]> {
    return this.byName.entries();
  }

  compoundNamesFirst(first: string, seconds: ReadonlySet<string>): readonly CompoundName[] {
    this.compounds ??= compoundIndex(this.names());
    const bySecond = this.compounds.get(first);
    if (!bySecond) return [];
    const lists: CompoundName[][] = [];
    for (const second of seconds) {
      const entries = bySecond.get(second);
      if (entries) lists.push(entries);
    }
    return inNameOrder(lists);
  }

  filesUnder(prefix: string): GraphFile[] {
    const folder = prefix.endsWith("/") ? prefix : `${prefix}/`;
    return this.files.filter((file) => file.path === prefix || file.path.startsWith(folder));
  }

  nodeAtLine(file: number, line: number): number {
    return nodeAtLine(this.nodes, this.files, file, line);
  }
}

/** The whole-graph PageRank of the nodes, from `start` when given (a rank close to it). */
export function wholeGraphRank(
  uses: EdgeRows,
  nodeCount: number,
  start?: Float64Array,
): Float64Array {
  return pageRank([{ edges: uses, scale: 1 }], nodeCount, {
    damping: CENTRALITY_DAMPING,
    ...(start ? { start } : {}),
  });
}
