import type { FileRoles } from "../core/file-roles.js";
import type { GraphNode, LoadedGraph, SymbolKind } from "../core/graph.js";
import type { TokenCounter } from "../core/token-counter.js";
import { visibleLine, visibleText } from "../text/visible-text.js";
import { focusSeeds, unknownFocus } from "./graph-seeds.js";
import { pageRank } from "./page-rank.js";

export interface RepoMapDefinition {
  readonly name: string;
  readonly kind: SymbolKind;
  readonly startLine: number;
  readonly endLine: number;
  readonly signature: string;
  readonly rank: number;
}

export interface RepoMapFile {
  readonly path: string;
  /** The best rank among its definitions shown. */
  readonly rank: number;
  readonly definitions: readonly RepoMapDefinition[];
}

export interface RepoMap {
  /** The map as text: each file, then its definitions' signatures with `⋮` where lines are left out. */
  readonly text: string;
  /** Tokens of `text` by the engine's counter; never more than the budget. */
  readonly tokens: number;
  readonly budget: number;
  readonly files: readonly RepoMapFile[];
  /** Definitions in the index, of which `files` shows some. */
  readonly definitions: number;
  /** Focus entries that name no file, folder or definition. */
  readonly unknownFocus: readonly string[];
}

export interface RepoMapOptions {
  readonly budget: number;
  readonly focus?: readonly string[];
  readonly counter: TokenCounter;
  /**
   * What each file is for: without a focus, the project's own code comes
   * before its tests, docs, examples, settings, vendored and generated files.
   */
  readonly roleOf?: FileRoles;
}

/** Budget of a map when none is given (`ctx map`): an overview, not the context for a task. */
export const DEFAULT_MAP_BUDGET = 1024;

/** Personalised by focus, the walk follows edges both ways: what the focus uses and what uses it. */
const FOCUS_DAMPING = 0.7;
const FOCUS_BACKWARD_SCALE = 0.7;
/** Even a one-line signature costs a few tokens: no map of n definitions fits in fewer than this many each. */
const MIN_TOKENS_PER_DEFINITION = 3;
const MAX_LINE_CHARS = 160;
const BODY_OPENS = /(\{|=>|:)\s*$/;

/**
 * The files and their most central definitions, as many as fit the budget:
 * definitions ranked by PageRank over the code graph (personalised by the
 * focus when given), the top n shown, n the largest whose rendering the
 * counter puts within the budget.
 */
export function repoMap(graph: LoadedGraph, options: RepoMapOptions): RepoMap {
  const focus = options.focus ?? [];
  const seeds = focusSeeds(graph, focus);
  const rank =
    seeds.size > 0
      ? pageRank(
          [
            { edges: graph.uses, scale: 1 },
            { edges: graph.usedBy, scale: FOCUS_BACKWARD_SCALE },
          ],
          graph.nodes.length,
          { damping: FOCUS_DAMPING, personalization: seeds },
        )
      : graph.centrality;
  const others = seeds.size === 0 && options.roleOf ? otherFiles(graph, options.roleOf) : null;
  const isOther = (node: GraphNode) => (others?.has(node.file) ? 1 : 0);
  const ranked = graph.nodes
    .filter((node) => node.kind !== "file")
    .sort(
      (a, b) => isOther(a) - isOther(b) || (rank[b.id] ?? 0) - (rank[a.id] ?? 0) || a.id - b.id,
    );
  const fits = (n: number) =>
    options.counter.count(render(graph, ranked.slice(0, n))) <= options.budget;
  let low = 0;
  let high = Math.min(ranked.length, Math.floor(options.budget / MIN_TOKENS_PER_DEFINITION));
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  // Counts are not quite monotonic in n (merged elisions, token boundaries): step down to one that fits.
  while (low > 0 && !fits(low)) low--;
  const shown = ranked.slice(0, low);
  const text = render(graph, shown);
  return {
    text,
    tokens: options.counter.count(text),
    budget: options.budget,
    files: describe(graph, shown, rank),
    definitions: ranked.length,
    unknownFocus: unknownFocus(graph, focus),
  };
}

/**
 * The files that are not the project's own code, by their index in the graph:
 * a copied library or a generated parser is central to the calls around it
 * (jq's decNumber, its Bison parser), not to what the project is.
 */
function otherFiles(graph: LoadedGraph, roleOf: FileRoles): Set<number> {
  const others = new Set<number>();
  graph.files.forEach((file, index) => {
    if (file && roleOf(file.path) !== "source") others.add(index);
  });
  return others;
}

/** Files in order of their best definition shown; definitions in line order, indented by nesting. */
function render(graph: LoadedGraph, shown: readonly GraphNode[]): string {
  const out: string[] = [];
  for (const [file, nodes] of byFile(shown)) {
    // Paths and signatures come from the repository: a newline in a name cannot start an entry
    // of its own, and no control character reaches a terminal.
    out.push(`${visibleLine(graph.files[file]?.path ?? "")}:`);
    let lastEnd = 0;
    for (const node of nodes) {
      // `res.set =\nres.header = function header(…)`: the outer signature already showed the inner.
      if (node.startLine <= lastEnd) continue;
      if (node.startLine > lastEnd + 1) out.push("⋮");
      const indent = "  ".repeat(depthOf(graph, node));
      const lines = signatureLines(node);
      for (const line of lines) out.push(`│${indent}${visibleText(line)}`);
      lastEnd = node.startLine + lines.length - 1;
    }
    out.push("⋮");
  }
  return out.length > 0 ? `${out.join("\n")}\n` : "";
}

/** Lines of a signature the map shows at most (the stored signature runs to its body). */
const MAX_MAP_SIGNATURE_LINES = 3;

/** `@Override`, `@app.route("/")`; C#'s `[Obsolete("…")]` and PHP's `#[Route("/")]` on a line of their own. */
const DECORATOR_LINE = /^\s*(?:@|#?\[.*\]\s*$)/;

/** A constant's first line, others' signature less its decorators, up to three lines; long lines cut. */
function signatureLines(node: GraphNode): string[] {
  const stored = (node.signature || node.name).split("\n");
  const decorators = stored.findIndex((line) => !DECORATOR_LINE.test(line));
  // A signature's lines are indented against its first (see signatureOf), decorators' too.
  const all = (decorators > 0 ? stored.slice(decorators) : stored).slice(
    0,
    MAX_MAP_SIGNATURE_LINES,
  );
  // A declaration without a body node runs on into its value: stop where a body opens.
  const opens = all.findIndex((line) => BODY_OPENS.test(line));
  const lines =
    node.kind === "constant" ? all.slice(0, 1) : all.slice(0, opens >= 0 ? opens + 1 : all.length);
  return lines.map((line) =>
    line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line,
  );
}

function describe(
  graph: LoadedGraph,
  shown: readonly GraphNode[],
  rank: Float64Array,
): RepoMapFile[] {
  return [...byFile(shown)].map(([file, nodes]) => ({
    path: graph.files[file]?.path ?? "",
    rank: round(Math.max(...nodes.map((node) => rank[node.id] ?? 0))),
    definitions: nodes.map((node) => ({
      name: node.name,
      kind: node.kind as SymbolKind,
      startLine: node.startLine,
      endLine: node.endLine,
      signature: node.signature,
      rank: round(rank[node.id] ?? 0),
    })),
  }));
}

/** Shown definitions grouped by file, files in order of first appearance (best rank first). */
function byFile(shown: readonly GraphNode[]): Map<number, GraphNode[]> {
  const groups = new Map<number, GraphNode[]>();
  for (const node of shown) {
    const group = groups.get(node.file);
    if (group) group.push(node);
    else groups.set(node.file, [node]);
  }
  for (const group of groups.values())
    group.sort((a, b) => a.startLine - b.startLine || a.id - b.id);
  return groups;
}

function depthOf(graph: LoadedGraph, node: GraphNode): number {
  let depth = 0;
  for (let parent = graph.nodes[node.parent]; parent && parent.kind !== "file"; depth++) {
    parent = graph.nodes[parent.parent];
  }
  return depth;
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
