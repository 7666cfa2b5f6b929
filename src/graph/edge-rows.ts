import type { EdgeRows } from "../core/graph.js";

/**
 * Weighted edges gathered per source node (weights of one pair summed), then
 * laid out as compressed rows, each row's targets ascending.
 */
export class EdgeRowsBuilder {
  private readonly rows: (Map<number, number> | undefined)[];

  constructor(private readonly nodeCount: number) {
    this.rows = new Array<Map<number, number> | undefined>(nodeCount);
  }

  readonly add = (from: number, to: number, weight: number): void => {
    if (from === to || weight <= 0) return;
    let row = this.rows[from];
    if (!row) {
      row = new Map();
      this.rows[from] = row;
    }
    row.set(to, (row.get(to) ?? 0) + weight);
  };

  build(): EdgeRows {
    const offsets = new Int32Array(this.nodeCount + 1);
    for (let node = 0; node < this.nodeCount; node++) {
      offsets[node + 1] = (offsets[node] ?? 0) + (this.rows[node]?.size ?? 0);
    }
    const total = offsets[this.nodeCount] ?? 0;
    const targets = new Int32Array(total);
    const weights = new Float64Array(total);
    for (let node = 0; node < this.nodeCount; node++) {
      const row = this.rows[node];
      if (!row) continue;
      let at = offsets[node] ?? 0;
      for (const to of [...row.keys()].sort((a, b) => a - b)) {
        targets[at] = to;
        weights[at] = row.get(to) ?? 0;
        at++;
      }
    }
    return { offsets, targets, weights };
  }
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
