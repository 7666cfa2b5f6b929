import { describe, expect, it } from "vitest";
import type { EdgeRows } from "../../src/core/graph.js";
import { localPageRank, PushWorkspace } from "../../src/graph/local-page-rank.js";
import { pageRank, transitions } from "../../src/graph/page-rank.js";

/** A graph of `nodes` nodes with edges drawn from a fixed seed; some nodes have none. */
function randomEdges(nodes: number, seed: number): EdgeRows {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const offsets = new Int32Array(nodes + 1);
  const targets: number[] = [];
  const weights: number[] = [];
  for (let node = 0; node < nodes; node++) {
    const degree = next() < 0.2 ? 0 : 1 + Math.floor(next() * 6);
    for (let e = 0; e < degree; e++) {
      targets.push(Math.floor(next() * nodes));
      weights.push(0.5 + next() * 2);
    }
    offsets[node + 1] = targets.length;
  }
  return { offsets, targets: Int32Array.from(targets), weights: Float64Array.from(weights) };
}

describe("localPageRank", () => {
  it("gives each node the rank power iteration gives it, within the tolerance", () => {
    const nodes = 400;
    const forward = randomEdges(nodes, 7);
    const backward = randomEdges(nodes, 11);
    const rows = [
      { edges: forward, scale: 1 },
      { edges: backward, scale: 0.7 },
    ];
    const seeds = new Map([
      [3, 1],
      [50, 0.5],
      [51, 0.25],
    ]);
    const exact = pageRank(rows, nodes, {
      damping: 0.5,
      personalization: seeds,
      tolerance: 1e-12,
      maxIterations: 200,
    });
    const pushed = localPageRank(transitions(rows, nodes), {
      damping: 0.5,
      personalization: seeds,
      tolerance: 1e-9,
    });
    let largest = 0;
    for (let node = 0; node < nodes; node++) {
      largest = Math.max(largest, Math.abs((exact[node] ?? 0) - (pushed[node] ?? 0)));
    }
    expect(largest).toBeLessThan(1e-6);
    // The seeds lead: the best-seeded node ranks first both ways.
    const best = (rank: Float64Array) => rank.indexOf(Math.max(...rank));
    expect(best(pushed)).toBe(best(exact));
  });

  it("stops spreading where what is left is under the tolerance, leaving far nodes at 0", () => {
    // A chain 0 → 1 → … → 99: a coarse push never reaches its far end.
    const nodes = 100;
    const offsets = Int32Array.from({ length: nodes + 1 }, (_, i) => Math.min(i, nodes - 1));
    const targets = Int32Array.from({ length: nodes - 1 }, (_, i) => i + 1);
    const weights = new Float64Array(nodes - 1).fill(1);
    const pushed = localPageRank(
      transitions([{ edges: { offsets, targets, weights }, scale: 1 }], nodes),
      {
        damping: 0.5,
        personalization: new Map([[0, 1]]),
        tolerance: 1e-4,
      },
    );
    expect(pushed[0]).toBeCloseTo(0.5, 3);
    expect(pushed[1]).toBeCloseTo(0.25, 3);
    expect(pushed[nodes - 1]).toBe(0);
  });

  it("ranks nothing without seeds", () => {
    const edges = randomEdges(10, 3);
    const rank = localPageRank(transitions([{ edges, scale: 1 }], 10), {
      damping: 0.5,
      personalization: new Map(),
      tolerance: 1e-6,
    });
    expect([...rank].every((value) => value === 0)).toBe(true);
  });
  it("gives the same ranks in a workspace that earlier pushes used, once cleared", () => {
    const nodes = 300;
    const rows = [
      { edges: randomEdges(nodes, 5), scale: 1 },
      { edges: randomEdges(nodes, 9), scale: 0.7 },
    ];
    const moves = transitions(rows, nodes);
    const options = (seeds: [number, number][]) => ({
      damping: 0.5,
      personalization: new Map(seeds),
      tolerance: 1e-6,
    });
    const workspace = new PushWorkspace(nodes);
    for (const seeds of [
      [[1, 1]],
      [
        [200, 1],
        [7, 0.5],
      ],
      [[42, 2]],
    ] as [number, number][][]) {
      const fresh = Array.from(localPageRank(moves, options(seeds)));
      expect(Array.from(localPageRank(moves, options(seeds), workspace))).toEqual(fresh);
      workspace.clear();
      expect(workspace.rank.every((value) => value === 0)).toBe(true);
      expect(workspace.residual.every((value) => value === 0)).toBe(true);
    }
  });
});
