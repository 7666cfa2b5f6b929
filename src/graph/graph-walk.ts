import type { EdgeRows, LoadedGraph } from "../core/graph.js";
import { withinPaths } from "../core/request-paths.js";
import { localPageRank, PushWorkspace } from "./local-page-rank.js";
import { type Transitions, transitions } from "./page-rank.js";

export interface WalkOptions {
  /** Largest number of edges between a seed and a returned node. */
  readonly hops: number;
  /** Chance of following an edge rather than returning to the seeds: low keeps the walk near them. */
  readonly damping: number;
  /** How much an edge counts walked backwards (to a caller, importer or user). */
  readonly backwardScale: number;
}

export const DEFAULT_WALK: WalkOptions = { hops: 2, damping: 0.5, backwardScale: 0.7 };

/**
 * The push's cost grows with one over its tolerance, and a tenth of an average
 * node's rank shrinks as the graph grows: past 50,000 nodes the walk stops at
 * this instead, up to three tenths of an average node's rank (reached at
 * 150,000 nodes, where a query then spends about 2 ms less in the walk).
 * Walks with three tenths on the commit benchmark's graphs (2,000–4,600 nodes)
 * moved a figure by one commit here and there, as often up as down, and
 * code-dev and SciFact not at all; coarser was not measured to be as good.
 */
const MIN_TOLERANCE = 2e-6;

export interface RankedNode {
  readonly node: number;
  /** Personalised PageRank. */
  readonly score: number;
  /**
   * The rank that reached the node along edges: its score less what the walk's
   * restarts put on it as a seed. A seed the other seeds lead to has much; a
   * seed nothing else relates to has none.
   */
  readonly received: number;
  /** Edges from the nearest seed (0 for a seed). */
  readonly distance: number;
}

/**
 * Nodes within `hops` of the seeds, both ways along every edge (callers and
 * callees, importers and imports, parents and children), ranked by PageRank
 * personalised by the seeds' weights (pushed out from the seeds, so a walk
 * costs its neighbourhood, not the whole graph).
 */
export function rankAround(
  graph: LoadedGraph,
  seeds: ReadonlyMap<number, number>,
  options: WalkOptions = DEFAULT_WALK,
  /** "none" leaves the nodes in the walk's order, for a caller that ranks them its own way. */
  order: "score" | "none" = "score",
): RankedNode[] {
  if (seeds.size === 0) return [];
  const nodeCount = graph.nodes.length;
  // Synchronous from here to the end, so queries in one process never share the arrays at once.
  const space = workspaceOf(graph);
  // Up to two hops, the walk marks only the seeds and their neighbours, and the nodes
  // the push ranks are checked for a path to those: a breadth-first walk of every
  // neighbour's edges read about 60,000 edges a query at 96,000 chunks (hubs among
  // them), the ranked nodes' own edges about 24,000.
  const breadthFirst = options.hops > 2;
  const walked = distances(
    graph,
    [...seeds.keys()],
    breadthFirst ? options.hops : Math.min(options.hops, 1),
    space.distance,
  );
  const reached = breadthFirst ? walked : null;
  try {
    const rank = localPageRank(
      walkTransitions(graph, options.backwardScale),
      {
        damping: options.damping,
        personalization: seeds,
        // A tenth of an average node's rank: the navigator divides what reached a node by its
        // whole-graph rank plus an average node's, so finer than that changes nothing it shows.
        // On a large graph that is finer than MIN_TOLERANCE, which bounds a walk's work.
        tolerance: Math.max(
          0.1 / Math.max(1, nodeCount),
          Math.min(MIN_TOLERANCE, 0.3 / Math.max(1, nodeCount)),
        ),
      },
      space.push,
    );
    const seedTotal = [...seeds.values()].reduce((sum, weight) => sum + Math.max(0, weight), 0);
    const restart = 1 - options.damping;
    const ranked: RankedNode[] = [];
    const emitted = space.push.queued;
    for (const node of reached ?? space.push.touched) {
      const score = rank[node] ?? 0;
      if (score <= 0) continue;
      let hops = space.distance[node] as number;
      if (!reached) {
        // The push lists a node each time it is given rank anew; `queued` is all 0 after it.
        if (emitted[node] === 1) continue;
        emitted[node] = 1;
        if (hops === -1) {
          if (options.hops < 2 || !nextToNear(graph, node, space.distance)) continue;
          hops = 2;
        }
      }
      // Only a seed (0 hops) has rank of its own from the restarts.
      const seed = hops === 0 ? Math.max(0, seeds.get(node) ?? 0) : 0;
      const own = seedTotal > 0 ? (restart * seed) / seedTotal : 0;
      ranked.push({ node, score, received: Math.max(0, score - own), distance: hops });
    }
    return order === "score" ? ranked.sort((a, b) => b.score - a.score || a.node - b.node) : ranked;
  } finally {
    space.push.clear();
    for (const node of walked) space.distance[node] = -1;
  }
}

/** Whether a node has a neighbour, either way, one hop from the seeds. */
function nextToNear(graph: LoadedGraph, node: number, distance: Int16Array): boolean {
  for (const rows of [graph.uses, graph.usedBy]) {
    for (let e = rows.offsets[node] as number; e < (rows.offsets[node + 1] as number); e++) {
      if (distance[rows.targets[e] as number] === 1) return true;
    }
  }
  return false;
}

/** The walk's arrays for one graph, made once and cleared after each walk. */
interface WalkWorkspace {
  readonly push: PushWorkspace;
  /** Edges from the nearest seed; -1 where the walk has not been. */
  readonly distance: Int16Array;
}

const workspaces = new WeakMap<LoadedGraph, WalkWorkspace>();

function workspaceOf(graph: LoadedGraph): WalkWorkspace {
  let space = workspaces.get(graph);
  if (!space) {
    space = {
      push: new PushWorkspace(graph.nodes.length),
      distance: new Int16Array(graph.nodes.length).fill(-1),
    };
    workspaces.set(graph, space);
  }
  return space;
}

const walks = new WeakMap<LoadedGraph, { backwardScale: number; transitions: Transitions }>();

/** Both ways along every edge, backwards at `backwardScale`: built once per graph, walked by every query. */
export function walkTransitions(graph: LoadedGraph, backwardScale: number): Transitions {
  const known = walks.get(graph);
  if (known?.backwardScale === backwardScale) return known.transitions;
  const built = transitions(
    [
      { edges: graph.uses, scale: 1 },
      { edges: graph.usedBy, scale: backwardScale },
    ],
    graph.nodes.length,
  );
  walks.set(graph, { backwardScale, transitions: built });
  return built;
}

/**
 * Gives a graph the walk's transitions built earlier (kept with a packed
 * graph): building them reads every edge, which a process's first query on a
 * large graph would otherwise pay.
 */
export function keepWalkTransitions(
  graph: LoadedGraph,
  backwardScale: number,
  kept: Transitions,
): void {
  walks.set(graph, { backwardScale, transitions: kept });
}

/**
 * Breadth-first distance from the nearest seed, both ways, up to `hops`, into
 * `distance` (all -1 on entry): the nodes reached, in that order.
 */
function distances(
  graph: LoadedGraph,
  seeds: readonly number[],
  hops: number,
  distance: Int16Array,
): number[] {
  const nodes: number[] = [];
  for (const seed of seeds) {
    if (seed < 0 || seed >= distance.length || distance[seed] !== -1) continue;
    distance[seed] = 0;
    nodes.push(seed);
  }
  let from = 0;
  for (let step = 1; step <= hops && from < nodes.length; step++) {
    const to = nodes.length;
    const visit = (rows: EdgeRows, node: number) => {
      for (let e = rows.offsets[node] as number; e < (rows.offsets[node + 1] as number); e++) {
        const target = rows.targets[e] as number;
        if (distance[target] === -1) {
          distance[target] = step;
          nodes.push(target);
        }
      }
    };
    for (let i = from; i < to; i++) {
      const node = nodes[i] as number;
      visit(graph.uses, node);
      visit(graph.usedBy, node);
    }
    from = to;
  }
  return nodes;
}

/** The walk's nodes in files under the request's path prefixes (all of them without any). */
export function rankedWithinPaths(
  graph: LoadedGraph,
  ranked: readonly RankedNode[],
  paths: readonly string[] | undefined,
): readonly RankedNode[] {
  if (!paths || paths.length === 0) return ranked;
  return ranked.filter(({ node }) =>
    withinPaths(graph.files[graph.nodes[node]?.file ?? -1]?.path ?? "", paths),
  );
}
