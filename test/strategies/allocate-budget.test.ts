import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allocateBudget } from "../../src/strategies/allocate-budget.js";

describe("allocateBudget", () => {
  it("splits in proportion to confidence × quality", () => {
    const allocation = allocateBudget(
      [
        { name: "a", confidence: 1, quality: 0.6, maxShare: 1 },
        { name: "b", confidence: 0.5, quality: 0.4, maxShare: 1 },
      ],
      8000,
    );
    expect(allocation.get("a")).toBe(6000);
    expect(allocation.get("b")).toBe(2000);
  });

  it("caps a strategy at its max share and gives the rest to the others", () => {
    const allocation = allocateBudget(
      [
        { name: "big", confidence: 1, quality: 0.9, maxShare: 0.25 },
        { name: "x", confidence: 0.5, quality: 0.3, maxShare: 1 },
        { name: "y", confidence: 0.5, quality: 0.3, maxShare: 1 },
      ],
      1000,
    );
    expect(allocation.get("big")).toBe(250);
    expect(allocation.get("x")).toBe(375);
    expect(allocation.get("y")).toBe(375);
  });

  it("never hands out more than the total, and respects every cap", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            confidence: fc.double({ min: 0, max: 1, noNaN: true }),
            quality: fc.double({ min: 0, max: 1, noNaN: true }),
            maxShare: fc.double({ min: 0.01, max: 1, noNaN: true }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        fc.integer({ min: 0, max: 100_000 }),
        (inputs, total) => {
          const named = inputs.map((input, index) => ({ ...input, name: `s${index}` }));
          const allocation = allocateBudget(named, total);
          const sum = [...allocation.values()].reduce((a, b) => a + b, 0);
          expect(sum).toBeLessThanOrEqual(total);
          for (const input of named)
            expect(allocation.get(input.name)).toBeLessThanOrEqual(input.maxShare * total + 1e-6);
        },
      ),
    );
  });
});
