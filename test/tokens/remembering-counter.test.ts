import { describe, expect, it } from "vitest";
import type { TokenCounter } from "../../src/core/token-counter.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { rememberingCounter } from "../../src/tokens/remembering-counter.js";

/** o200k, counting how often it was asked. */
function countingCounter(): TokenCounter & { calls: number } {
  const counter = {
    name: "o200k",
    calls: 0,
    count(text: string) {
      counter.calls++;
      return o200kCounter.count(text);
    },
    countUpTo(text: string, limit: number) {
      counter.calls++;
      return o200kCounter.countUpTo?.(text, limit) ?? o200kCounter.count(text);
    },
  };
  return counter;
}

const TEXT =
  "export function retryWithBackoff(attempts: number): Promise<void> {\n  return wait(attempts * 100);\n}";

describe("rememberingCounter", () => {
  it("counts as its counter does and counts a text it has seen without asking again", () => {
    const inner = countingCounter();
    const counter = rememberingCounter(inner);
    const exact = o200kCounter.count(TEXT);
    expect(counter.count(TEXT)).toBe(exact);
    expect(counter.count(TEXT)).toBe(exact);
    expect(counter.countUpTo?.(TEXT, 5)).toBe(exact);
    expect(inner.calls).toBe(1);
  });

  it("keeps a count cut off at a limit only as 'more than', never as the count", () => {
    const inner = countingCounter();
    const counter = rememberingCounter(inner);
    const exact = o200kCounter.count(TEXT);
    const over = counter.countUpTo?.(TEXT, 5) ?? 0;
    expect(over).toBeGreaterThan(5);
    // A lower limit is answered from what is known; a higher one needs a real count.
    expect(counter.countUpTo?.(TEXT, 3)).toBeGreaterThan(3);
    expect(inner.calls).toBe(1);
    expect(counter.countUpTo?.(TEXT, 1000)).toBe(exact);
    expect(counter.count(TEXT)).toBe(exact);
    expect(inner.calls).toBe(2);
  });

  it("forgets the oldest texts past its capacity", () => {
    const inner = countingCounter();
    const counter = rememberingCounter(inner, 2);
    for (const text of ["one", "two", "three"]) counter.count(text);
    counter.count("three");
    counter.count("two");
    expect(inner.calls).toBe(3);
    counter.count("one");
    expect(inner.calls).toBe(4);
  });
});
