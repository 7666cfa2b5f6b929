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

/** Long enough to be remembered (shorter texts are counted afresh). */
const TEXT = [
  "/** Waits longer after each failed attempt, up to the caller's limit. */",
  "export function retryWithBackoff(attempts: number, limit: number): Promise<void> {",
  "  const delay = Math.min(limit, 2 ** attempts * 100);",
  '  return wait(delay).then(() => log.debug("retrying after", delay, "ms"));',
  "}",
].join("\n");

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
    const [one, two, three] = ["one", "two", "three"].map((word) => `${word} ${TEXT}`);
    for (const text of [one, two, three]) counter.count(text as string);
    counter.count(three as string);
    counter.count(two as string);
    expect(inner.calls).toBe(3);
    counter.count(one as string);
    expect(inner.calls).toBe(4);
  });

  it("counts short texts afresh, so they never push a chunk's count out", () => {
    const inner = countingCounter();
    const counter = rememberingCounter(inner, 1);
    counter.count(TEXT);
    for (const heading of ["## a.ts:1-9 (score 0.500)\n", "```\n"]) {
      expect(counter.count(heading)).toBe(o200kCounter.count(heading));
      expect(counter.count(heading)).toBe(o200kCounter.count(heading));
    }
    expect(inner.calls).toBe(5);
    counter.count(TEXT);
    expect(inner.calls).toBe(5);
  });
});
