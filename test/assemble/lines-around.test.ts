import { describe, expect, it } from "vitest";
import {
  AROUND_LINES,
  AROUND_RULE,
  AROUND_SHARE,
  linesAround,
} from "../../src/assemble/lines-around.js";
import { packToBudget } from "../../src/assemble/pack-to-budget.js";
import { rendererFor } from "../../src/assemble/renderers.js";
import type { ContextFragment } from "../../src/core/fragment.js";
import { StoredLines } from "../../src/core/stored-lines.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";
import { fileFragment as uncounted } from "../helpers/test-strategies.js";

interface JsonFragment {
  path: string;
  startLine: number;
  endLine: number;
}

// A file far over half the budget (never shown whole), the task about one function in its
// middle: the functions around it match none of the task's words and call nothing of it.
const FILLERS = 120;
const filler = (i: number) =>
  [
    `export function normalizeEntry${i}(entry: string): string {`,
    `  return entry.trim().slice(${i});`,
    "}",
    "",
  ].join("\n");
const DISCOUNT = [
  "export function applyDiscountCode(total: number, code: string): number {",
  '  if (code === "HALF") return total / 2;',
  "  return total;",
  "}",
  "",
].join("\n");
const ORDERS = [
  ...Array.from({ length: FILLERS / 2 }, (_, i) => filler(i)),
  DISCOUNT,
  ...Array.from({ length: FILLERS / 2 }, (_, i) => filler(FILLERS / 2 + i)),
].join("\n");
const DISCOUNT_LINE = ORDERS.split("\n").indexOf(DISCOUNT.split("\n")[0] as string) + 1;

const shownLines = (fragments: JsonFragment[], path: string): Set<number> => {
  const lines = new Set<number>();
  for (const fragment of fragments)
    if (fragment.path === path)
      for (let line = fragment.startLine; line <= fragment.endLine; line++) lines.add(line);
  return lines;
};

describe("the lines around an answer's best fragments", () => {
  it("are shown with them, in place of nothing the task matched", async () => {
    const root = tempDir("ctx-around-");
    writeFiles(root, { "src/orders.ts": ORDERS });
    const engine = await indexedEngine(root);
    const result = await engine.query({
      task: "applyDiscountCode ignores lower-case codes",
      budget: 2000,
      format: "json",
    });
    const fragments = (JSON.parse(result.output) as { fragments: JsonFragment[] }).fragments;
    const shown = shownLines(fragments, "src/orders.ts");
    for (let line = DISCOUNT_LINE; line < DISCOUNT_LINE + 4; line++)
      expect(shown.has(line)).toBe(true);
    // The lines just above and below the function: what a reader scrolls to next.
    expect(shown.has(DISCOUNT_LINE - 1)).toBe(true);
    expect(shown.has(DISCOUNT_LINE - 10)).toBe(true);
    expect(shown.has(DISCOUNT_LINE + 10)).toBe(true);
    // Never further than the window: the file is not read whole.
    expect(shown.has(DISCOUNT_LINE + 2 * AROUND_LINES)).toBe(false);
    expect(shown.has(ORDERS.split("\n").length - 1)).toBe(false);
    // One block: the lines around a fragment merge with it.
    const block = fragments.filter(
      (fragment) => fragment.startLine <= DISCOUNT_LINE && fragment.endLine >= DISCOUNT_LINE,
    );
    expect(block).toHaveLength(1);
    expect(block[0]?.startLine).toBe(DISCOUNT_LINE - AROUND_LINES);
  });
});

/** A fragment of `lines` lines from `startLine`, with its tokens counted. */
const fileFragment = (
  strategy: string,
  path: string,
  startLine: number,
  lines: number,
  score: number,
): ContextFragment => {
  const fragment = uncounted(strategy, path, startLine, lines, score);
  return { ...fragment, tokens: o200kCounter.count(fragment.content) };
};

describe("packing with the lines around the best fragments", () => {
  const renderer = rendererFor("json", { explain: false, runs: [] });
  const around =
    (fileLines: number) =>
    (fragment: ContextFragment): ContextFragment[] => {
      if (fragment.source.kind !== "file" || fragment.source.endLine >= fileLines) return [];
      const from = fragment.source.endLine + 1;
      const count = Math.min(fileLines - from + 1, AROUND_LINES);
      const lines = fileFragment(fragment.strategy, fragment.source.path, from, count, 0);
      const score = AROUND_SHARE * fragment.score;
      return [
        { ...lines, score, rank: { by: "strategy", base: score, rules: [], placed: AROUND_RULE } },
      ];
    };
  const options = (budget: number) => ({
    task: "alpha",
    budget,
    limit: budget,
    counter: o200kCounter,
    renderer,
  });

  it("lets the lines take the place of the weak tail", () => {
    const best = fileFragment("keyword", "src/orders.ts", 1, 10, 1);
    const good = fileFragment("keyword", "src/pricing.ts", 1, 10, 0.5);
    const weak = fileFragment("keyword", "CHANGELOG.md", 100, 60, 0.01);
    // Scored below the lines around the best fragment (0.2), but its file's only fragment.
    const lone = fileFragment("keyword", "src/notes.ts", 1, 5, 0.1);
    const candidates = [best, good, weak, lone];
    const without = packToBudget(candidates, options(1000));
    expect(without.placed.get(weak.id)).toBe("full");
    const packed = packToBudget(candidates, { ...options(1000), around: around(200) });
    for (const kept of [best, good, lone]) expect(packed.placed.has(kept.id)).toBe(true);
    expect(packed.placed.has(weak.id)).toBe(false);
    expect(packed.dropped).toBe(without.dropped + 1);
    const orders = packed.fragments.find(
      (fragment) => fragment.source.kind === "file" && fragment.source.path === "src/orders.ts",
    );
    expect(orders?.source.kind === "file" && orders.source.endLine).toBeGreaterThan(10);
    expect(orders?.score).toBe(1);
    expect(packed.tokensUsed).toBeLessThanOrEqual(1000);
  });

  it("never lets the lines push out a file whose best fragment the ranking holds likely", () => {
    const best = fileFragment("keyword", "src/orders.ts", 1, 10, 1);
    // Below the lines around the best fragment (0.2), above the weak tail.
    const likely = fileFragment("keyword", "src/notes.ts", 1, 5, 0.1);
    // Room for the best fragment with its lines around, or with the other file: not for all three.
    const packed = packToBudget([best, likely], { ...options(700), around: around(200) });
    expect(packed.placed.has(likely.id)).toBe(true);
    expect(packed.placed.has(best.id)).toBe(true);
  });

  it("never displaces a pinned file", () => {
    const pinned = { ...fileFragment("hot", "NOTES.md", 1, 40, 0.001), tier: "hot" as const };
    const best = fileFragment("keyword", "src/orders.ts", 1, 10, 1);
    const packed = packToBudget([pinned, best], { ...options(700), around: around(400) });
    expect(packed.placed.has(pinned.id)).toBe(true);
    expect(packed.placed.has(best.id)).toBe(true);
  });
});

describe("the lines around one fragment", () => {
  const file = Array.from({ length: 200 }, (_, i) => `line ${i + 1}`);
  /** The file's first `count` lines as the index would hold them: one chunk. */
  const stored = (count: number) =>
    new StoredLines([
      {
        id: 1,
        documentId: 1,
        resourceId: "r",
        path: "src/long.ts",
        language: "typescript",
        startLine: 1,
        endLine: count,
        kind: "window",
        symbol: "",
        parentId: null,
        parentSymbol: "",
        content: file.slice(0, count).join("\n"),
        header: "",
        defines: [],
        context: null,
        contextStatus: null,
        hash: "",
        tokens: 0,
      },
    ]);
  const linesOf = () => stored(file.length);
  const fragment = {
    ...uncounted("keyword", "src/long.ts", 100, 11, 0.5),
    id: "src/long.ts#L100-L110",
  };
  const spans = (around: ContextFragment[]) =>
    around.map((lines) =>
      lines.source.kind === "file" ? [lines.source.startLine, lines.source.endLine] : [],
    );

  it("reach the window's length each way, with the file's own lines", () => {
    const around = linesAround(fragment, linesOf);
    expect(spans(around)).toEqual([
      [100 - AROUND_LINES, 99],
      [111, 110 + AROUND_LINES],
    ]);
    expect(around[1]?.content.split("\n")[0]).toBe("line 111");
    expect(around[0]?.score).toBeCloseTo(AROUND_SHARE * 0.5);
    expect(around[0]?.id).toBe(`src/long.ts#L${100 - AROUND_LINES}-L99`);
  });

  it("stop at a line already shown and at the end of what the index holds", () => {
    const shown = (line: number) => line === 95;
    const short = () => stored(120);
    expect(spans(linesAround(fragment, short, shown))).toEqual([
      [96, 99],
      [111, 120],
    ]);
  });
});
