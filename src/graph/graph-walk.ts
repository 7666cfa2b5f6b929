import type { EdgeRows, LoadedGraph } from "../core/graph.js";
import { pageRank } from "./page-rank.js";

export interface WalkOptions {
  /** Largest number of edges between a seed and a returned node. */
  readonly hops: number;
  /** Chance of following an edge rather than returning to the seeds: low keeps the walk near them. */
  readonly damping: number;
  /** How much an edge counts walked backwards (to a caller, importer or user). */
  readonly backwardScale: number;
}

export const DEFAULT_WALK: WalkOptions = { hops: 2, damping: 0.5, backwardScale: 0.7 };

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
 * personalised by the seeds' weights.
 */
export function rankAround(
  graph: LoadedGraph,
  seeds: ReadonlyMap<number, number>,
  options: WalkOptions = DEFAULT_WALK,
): RankedNode[] {
  if (seeds.size === 0) return [];
  const distance = distances(graph, [...seeds.keys()], options.hops);
  const rank = pageRank(
    [
      { edges: graph.uses, scale: 1 },
      { edges: graph.usedBy, scale: options.backwardScale },
    ],
    graph.nodes.length,
    { damping: options.damping, personalization: seeds },
  );
  const seedTotal = [...seeds.values()].reduce((sum, weight) => sum + Math.max(0, weight), 0);
  const restart = 1 - options.damping;
  const ranked: RankedNode[] = [];
  for (const [node, hops] of distance) {
    const score = rank[node] ?? 0;
    const own = seedTotal > 0 ? (restart * Math.max(0, seeds.get(node) ?? 0)) / seedTotal : 0;
    if (score > 0) ranked.push({ node, score, received: Math.max(0, score - own), distance: hops });
  }
  return ranked.sort((a, b) => b.score - a.score || a.node - b.node);
}

/** Breadth-first distance from the nearest seed, both ways, up to `hops`. */
function distances(
  graph: LoadedGraph,
  seeds: readonly number[],
  hops: number,
): Map<number, number> {
  const distance = new Map<number, number>(seeds.map((node) => [node, 0]));
  let frontier = [...seeds];
  for (let step = 1; step <= hops && frontier.length > 0; step++) {
    const next: number[] = [];
    const visit = (rows: EdgeRows, node: number) => {
      for (let e = rows.offsets[node] as number; e < (rows.offsets[node + 1] as number); e++) {
        const target = rows.targets[e] as number;
        if (!distance.has(target)) {
          distance.set(target, step);
          next.push(target);
        }
      }
    };
    for (const node of frontier) {
      visit(graph.uses, node);
      visit(graph.usedBy, node);
    }
    frontier = next;
  }
  return distance;
}
