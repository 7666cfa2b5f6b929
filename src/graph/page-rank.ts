import type { EdgeRows } from "../core/graph.js";

/** A set of edges and how much each of its weights counts. */
export interface ScaledEdges {
  readonly edges: EdgeRows;
  readonly scale: number;
}

export interface PageRankOptions {
  /** Probability of following an edge rather than jumping back to the personalisation. */
  readonly damping: number;
  /** Start and jump distribution by node; uniform when absent. Need not sum to 1. */
  readonly personalization?: ReadonlyMap<number, number>;
  readonly maxIterations?: number;
  /** Stop once the total change of one iteration is below this. */
  readonly tolerance?: number;
  /**
   * Where the iteration starts (say, the rank before a small change to the
   * graph, which is nearly there); the jump distribution when absent.
   */
  readonly start?: Float64Array;
}

/**
 * Personalised PageRank by power iteration over weighted out-edges, each
 * node's rank split over its edges by weight. Rank at nodes with no out-edges
 * goes back to the personalisation, so the ranks always sum to 1.
 */
export function pageRank(
  rows: readonly ScaledEdges[],
  nodeCount: number,
  options: PageRankOptions,
): Float64Array {
  const jump = jumpVector(nodeCount, options.personalization);
  const { offsets, targets, shares } = transitions(rows, nodeCount);
  let rank =
    options.start?.length === nodeCount
      ? Float64Array.from(options.start)
      : Float64Array.from(jump);
  let next = new Float64Array(nodeCount);
  const damping = options.damping;
  const maxIterations = options.maxIterations ?? 50;
  const tolerance = options.tolerance ?? 1e-6;
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    next.fill(0);
    const dangling = spreadRank(rank, next, offsets, targets, shares, damping);
    const change = addJump(next, rank, jump, 1 - damping + damping * dangling);
    [rank, next] = [next, rank];
    if (change < tolerance) break;
  }
  return rank;
}

/**
 * One step's spread of each node's rank over its out-edges into `next`; what
 * nodes without edges hold is returned. The steps' passes are functions of
 * their own: compiled as one function, each pass first reached after the
 * others were compiled had the whole compiled again.
 */
function spreadRank(
  rank: Float64Array,
  next: Float64Array,
  offsets: Int32Array,
  targets: Int32Array,
  shares: Float64Array,
  damping: number,
): number {
  let dangling = 0;
  for (let node = 0; node < rank.length; node++) {
    const value = rank[node] as number;
    const start = offsets[node] as number;
    const end = offsets[node + 1] as number;
    if (start === end) {
      dangling += value;
      continue;
    }
    const spread = damping * value;
    for (let e = start; e < end; e++) {
      const target = targets[e] as number;
      next[target] = (next[target] as number) + spread * (shares[e] as number);
    }
  }
  return dangling;
}

/** `back` of the jump distribution added to `next`; the total change from `rank`. */
function addJump(next: Float64Array, rank: Float64Array, jump: Float64Array, back: number): number {
  let change = 0;
  for (let node = 0; node < next.length; node++) {
    const value = (next[node] as number) + back * (jump[node] as number);
    next[node] = value;
    change += Math.abs(value - (rank[node] as number));
  }
  return change;
}

function jumpVector(nodeCount: number, personal?: ReadonlyMap<number, number>): Float64Array {
  const jump = new Float64Array(nodeCount);
  let total = 0;
  for (const [node, value] of personal ?? []) {
    if (node >= 0 && node < nodeCount && value > 0) total += value;
  }
  if (total <= 0) return jump.fill(1 / Math.max(1, nodeCount));
  for (const [node, value] of personal ?? []) {
    if (node >= 0 && node < nodeCount && value > 0)
      jump[node] = (jump[node] as number) + value / total;
  }
  return jump;
}

/** Out-edges of every node in one row each, with the share of the node's rank each edge carries. */
export interface Transitions {
  /** Node n's edges are offsets[n] to offsets[n + 1]; one entry more than there are nodes. */
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
  readonly shares: Float64Array;
}

/**
 * The edge sets merged into one row per node, each edge's share of its node's
 * total weight. An edge of weight 0 (or a node whose edges weigh nothing)
 * carries nothing.
 */
export function transitions(rows: readonly ScaledEdges[], nodeCount: number): Transitions {
  const offsets = mergedOffsets(rows, nodeCount);
  const targets = new Int32Array(offsets[nodeCount] as number);
  const shares = new Float64Array(targets.length);
  fillShares(rows, offsets, targets, shares);
  return { offsets, targets, shares };
}

/** Where each node's merged row starts (a pass of its own, as in `pageRank`). */
function mergedOffsets(rows: readonly ScaledEdges[], nodeCount: number): Int32Array {
  const offsets = new Int32Array(nodeCount + 1);
  for (let node = 0; node < nodeCount; node++) {
    let count = 0;
    for (const { edges } of rows) {
      count += (edges.offsets[node + 1] as number) - (edges.offsets[node] as number);
    }
    offsets[node + 1] = (offsets[node] as number) + count;
  }
  return offsets;
}

function fillShares(
  rows: readonly ScaledEdges[],
  offsets: Int32Array,
  targets: Int32Array,
  shares: Float64Array,
): void {
  for (let node = 0; node < offsets.length - 1; node++) {
    let at = offsets[node] as number;
    let total = 0;
    for (const { edges, scale } of rows) {
      for (let e = edges.offsets[node] as number; e < (edges.offsets[node + 1] as number); e++) {
        targets[at] = edges.targets[e] as number;
        const weight = scale * (edges.weights[e] as number);
        shares[at++] = weight;
        total += weight;
      }
    }
    for (let e = offsets[node] as number; e < at; e++) {
      shares[e] = total > 0 ? (shares[e] as number) / total : 0;
    }
  }
}
