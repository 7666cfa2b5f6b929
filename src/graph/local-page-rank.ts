import type { Transitions } from "./page-rank.js";

export interface LocalPageRankOptions {
  /** Probability of following an edge rather than jumping back to the seeds. */
  readonly damping: number;
  /** Jump distribution by node; need not sum to 1. */
  readonly personalization: ReadonlyMap<number, number>;
  /**
   * A node's rank still to spread is spread only while it is above this times
   * the node's number of edges: each node's rank ends within that of the exact one.
   */
  readonly tolerance: number;
}

/**
 * Personalised PageRank by forward push (Andersen, Chung and Lang, 2006): rank
 * flows out from the seeds only while what a node has left to spread is worth
 * spreading, so one query touches the seeds' neighbourhood instead of every
 * node of the graph some fifty times over, as power iteration does. Rank that
 * reaches a node with no out-edges goes back to the seeds, as in `pageRank`.
 * Nodes the push never reached have rank 0.
 */
export function localPageRank(
  { offsets, targets, shares }: Transitions,
  options: LocalPageRankOptions,
  workspace: PushWorkspace = new PushWorkspace(offsets.length - 1),
): Float64Array {
  const nodeCount = offsets.length - 1;
  const { rank, residual, queued, touched } = workspace;
  const jump = jumpShares(nodeCount, options.personalization);
  if (jump.length === 0) return rank;
  const { damping, tolerance } = options;
  const threshold = (node: number) =>
    tolerance * Math.max(1, (offsets[node + 1] as number) - (offsets[node] as number));
  let frontier: number[] = [];
  const give = (node: number, amount: number) => {
    if (residual[node] === 0 && rank[node] === 0) touched.push(node);
    const value = (residual[node] as number) + amount;
    residual[node] = value;
    if (queued[node] === 0 && value > threshold(node)) {
      queued[node] = 1;
      frontier.push(node);
    }
  };
  for (const [node, share] of jump) give(node, share);
  while (frontier.length > 0) {
    const current = frontier;
    frontier = [];
    for (const node of current) {
      queued[node] = 0;
      const value = residual[node] as number;
      if (value <= threshold(node)) continue;
      residual[node] = 0;
      rank[node] = (rank[node] as number) + (1 - damping) * value;
      const spread = damping * value;
      const start = offsets[node] as number;
      const end = offsets[node + 1] as number;
      if (start === end) {
        for (const [seed, share] of jump) give(seed, spread * share);
        continue;
      }
      for (let e = start; e < end; e++) give(targets[e] as number, spread * (shares[e] as number));
    }
  }
  return rank;
}

/**
 * The push's arrays, one slot per node of a graph, kept for the next push: a
 * query's push touches a few thousand nodes, and arrays of the whole graph
 * (1.2 MB each at 150,000 nodes) made anew for each query kept the garbage
 * collector busy. `clear` zeroes the slots the last push touched.
 */
export class PushWorkspace {
  readonly rank: Float64Array;
  readonly residual: Float64Array;
  readonly queued: Uint8Array;
  /** Nodes given rank or residual since the last `clear` (a node may repeat). */
  readonly touched: number[] = [];

  constructor(readonly nodeCount: number) {
    this.rank = new Float64Array(nodeCount);
    this.residual = new Float64Array(nodeCount);
    this.queued = new Uint8Array(nodeCount);
  }

  clear(): void {
    for (const node of this.touched) {
      this.rank[node] = 0;
      this.residual[node] = 0;
      this.queued[node] = 0;
    }
    this.touched.length = 0;
  }
}

function jumpShares(nodeCount: number, personal: ReadonlyMap<number, number>): [number, number][] {
  const valid = [...personal].filter(([node, value]) => node >= 0 && node < nodeCount && value > 0);
  const total = valid.reduce((sum, [, value]) => sum + value, 0);
  return total > 0 ? valid.map(([node, value]) => [node, value / total]) : [];
}
