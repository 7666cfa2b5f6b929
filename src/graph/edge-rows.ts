import type { EdgeRows } from "../core/graph.js";

/**
 * Weighted edges gathered in the order they come, then laid out as compressed
 * rows, each row's targets ascending, the weights of one pair summed. Kept in
 * flat typed arrays rather than a map per source node: a first index of
 * three.js adds a few hundred thousand edges, and maps made that a tenth of
 * the graph's build.
 */
export class EdgeRowsBuilder {
  private from = new Int32Array(1024);
  private to = new Int32Array(1024);
  private weight = new Float64Array(1024);
  private count = 0;

  constructor(private readonly nodeCount: number) {}

  readonly add = (from: number, to: number, weight: number): void => {
    if (from === to || weight <= 0) return;
    if (this.count === this.from.length) this.grow();
    this.from[this.count] = from;
    this.to[this.count] = to;
    this.weight[this.count] = weight;
    this.count++;
  };

  build(): EdgeRows {
    // Counting sort by source, then each row by target, merging repeated pairs.
    const starts = new Int32Array(this.nodeCount + 1);
    for (let e = 0; e < this.count; e++) {
      const row = (this.from[e] as number) + 1;
      starts[row] = (starts[row] as number) + 1;
    }
    for (let node = 0; node < this.nodeCount; node++) {
      starts[node + 1] = (starts[node + 1] as number) + (starts[node] as number);
    }
    const fill = starts.slice(0, this.nodeCount);
    const rowTargets = new Int32Array(this.count);
    const rowWeights = new Float64Array(this.count);
    for (let e = 0; e < this.count; e++) {
      const from = this.from[e] as number;
      const at = fill[from] as number;
      fill[from] = at + 1;
      rowTargets[at] = this.to[e] as number;
      rowWeights[at] = this.weight[e] as number;
    }
    const offsets = new Int32Array(this.nodeCount + 1);
    const targets = new Int32Array(this.count);
    const weights = new Float64Array(this.count);
    let out = 0;
    for (let node = 0; node < this.nodeCount; node++) {
      const start = starts[node] as number;
      const end = starts[node + 1] as number;
      sortRow(rowTargets, rowWeights, start, end);
      for (let e = start; e < end; e++) {
        const target = rowTargets[e] as number;
        if (out > (offsets[node] as number) && targets[out - 1] === target) {
          weights[out - 1] = (weights[out - 1] as number) + (rowWeights[e] as number);
        } else {
          targets[out] = target;
          weights[out] = rowWeights[e] as number;
          out++;
        }
      }
      offsets[node + 1] = out;
    }
    return { offsets, targets: targets.slice(0, out), weights: weights.slice(0, out) };
  }

  private grow(): void {
    const size = this.from.length * 2;
    const from = new Int32Array(size);
    const to = new Int32Array(size);
    const weight = new Float64Array(size);
    from.set(this.from);
    to.set(this.to);
    weight.set(this.weight);
    this.from = from;
    this.to = to;
    this.weight = weight;
  }
}

/**
 * Sorts one row's targets ascending, carrying their weights, keeping equal
 * targets in the order they came (their weights sum in that order, as before).
 */
function sortRow(targets: Int32Array, weights: Float64Array, start: number, end: number): void {
  if (end - start < 2) return;
  if (end - start <= 32) {
    for (let i = start + 1; i < end; i++) {
      const target = targets[i] as number;
      const weight = weights[i] as number;
      let j = i - 1;
      while (j >= start && (targets[j] as number) > target) {
        targets[j + 1] = targets[j] as number;
        weights[j + 1] = weights[j] as number;
        j--;
      }
      targets[j + 1] = target;
      weights[j + 1] = weight;
    }
    return;
  }
  const order = Array.from({ length: end - start }, (_, i) => start + i).sort(
    (a, b) => (targets[a] as number) - (targets[b] as number) || a - b,
  );
  const sortedTargets = order.map((i) => targets[i] as number);
  const sortedWeights = order.map((i) => weights[i] as number);
  targets.set(sortedTargets, start);
  weights.set(sortedWeights, start);
}

/** The rows reversed: from each edge's target to its source. */
export function reverseRows(rows: EdgeRows): EdgeRows {
  const nodeCount = rows.offsets.length - 1;
  const reversed = new EdgeRowsBuilder(nodeCount);
  for (let from = 0; from < nodeCount; from++) {
    for (let e = rows.offsets[from] ?? 0; e < (rows.offsets[from + 1] ?? 0); e++) {
      reversed.add(rows.targets[e] ?? 0, from, rows.weights[e] ?? 0);
    }
  }
  return reversed.build();
}
