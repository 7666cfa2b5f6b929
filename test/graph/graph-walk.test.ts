import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { EdgeRows, LoadedGraph } from "../../src/core/graph.js";
import { rankAround } from "../../src/graph/graph-walk.js";

/** Edge rows of `count` nodes from (from, to) pairs, each of weight 1. */
function rows(count: number, edges: readonly (readonly [number, number])[]): EdgeRows {
  const sorted = [...edges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const offsets = new Int32Array(count + 1);
  for (const [from] of sorted) offsets[from + 1] = (offsets[from + 1] as number) + 1;
  for (let node = 0; node < count; node++)
    offsets[node + 1] = (offsets[node + 1] as number) + (offsets[node] as number);
  return {
    offsets,
    targets: Int32Array.from(sorted.map(([, to]) => to)),
    weights: new Float64Array(sorted.length).fill(1),
  };
}

/** What the walk reads of a graph: its node count and edges both ways. */
function graphOf(count: number, edges: readonly (readonly [number, number])[]): LoadedGraph {
  return {
    nodes: Array.from({ length: count }),
    uses: rows(count, edges),
    usedBy: rows(
      count,
      edges.map(([from, to]) => [to, from] as const),
    ),
  } as unknown as LoadedGraph;
}

const walk = { damping: 0.5, backwardScale: 0.7 };

describe("rankAround", () => {
  // Up to two hops the walk checks only the nodes the push ranked; past two it walks
  // breadth-first. The push does not depend on the hop limit, so a walk of three hops
  // cut to fewer must be the walk of fewer: same nodes, ranks and distances.
  it("finds, within one or two hops, what a breadth-first walk of three hops finds there", () => {
    const graphs = fc.integer({ min: 1, max: 40 }).chain((count) =>
      fc.record({
        count: fc.constant(count),
        edges: fc.array(fc.tuple(fc.nat({ max: count - 1 }), fc.nat({ max: count - 1 })), {
          maxLength: 120,
        }),
        seeds: fc.uniqueArray(
          fc.tuple(fc.nat({ max: count - 1 }), fc.double({ min: 0, max: 2, noNaN: true })),
          { minLength: 1, maxLength: 5, selector: ([node]) => node },
        ),
      }),
    );
    fc.assert(
      fc.property(graphs, ({ count, edges, seeds }) => {
        const graph = graphOf(count, edges);
        const seedMap = new Map(seeds);
        const wide = rankAround(graph, seedMap, { ...walk, hops: 3 });
        for (const hops of [0, 1, 2]) {
          expect(rankAround(graph, seedMap, { ...walk, hops })).toEqual(
            wide.filter((node) => node.distance <= hops),
          );
        }
      }),
      { numRuns: 500 },
    );
  });
});
