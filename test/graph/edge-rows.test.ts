import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EdgeRowsBuilder, reverseRows } from "../../src/graph/edge-rows.js";

/** The rows as a map of `from→to` to summed weight, the way a reader of the graph sees them. */
function pairs(rows: ReturnType<EdgeRowsBuilder["build"]>): Map<string, number> {
  const found = new Map<string, number>();
  for (let from = 0; from + 1 < rows.offsets.length; from++) {
    const start = rows.offsets[from] ?? 0;
    const end = rows.offsets[from + 1] ?? 0;
    for (let e = start; e < end; e++) {
      if (e > start)
        expect(rows.targets[e] as number).toBeGreaterThan(rows.targets[e - 1] as number);
      found.set(`${from}→${rows.targets[e]}`, rows.weights[e] as number);
    }
  }
  return found;
}

describe("edge rows", () => {
  it("sums the weights of each pair in the order added, targets ascending, without self-loops or empty weights", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.nat(40),
            fc.nat(40),
            fc.oneof(fc.constant(0), fc.double({ min: 0.01, max: 3, noNaN: true })),
          ),
          { maxLength: 3000 },
        ),
        (edges) => {
          const builder = new EdgeRowsBuilder(41);
          const expected = new Map<string, number>();
          for (const [from, to, weight] of edges) {
            builder.add(from, to, weight);
            if (from === to || weight <= 0) continue;
            const key = `${from}→${to}`;
            expected.set(key, (expected.get(key) ?? 0) + weight);
          }
          const rows = builder.build();
          expect(pairs(rows)).toEqual(expected);
          const reversed = new Map(
            [...expected].map(([key, weight]) => [key.split("→").reverse().join("→"), weight]),
          );
          expect(pairs(reverseRows(rows))).toEqual(reversed);
        },
      ),
      { numRuns: 60 },
    );
  });
});
