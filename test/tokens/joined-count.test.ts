import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { estimateCounter } from "../../src/tokens/estimate-counter.js";
import { countJoined } from "../../src/tokens/joined-count.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";

const SOURCES = fileURLToPath(new URL("../../src/tokens", import.meta.url));

/** Deterministic pseudo-random numbers (a property test that fails the same way every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** Texts with what makes o200k's pieces cross lines: blank lines, `//` at a line's start, indents, non-ASCII. */
const TEXTS = [
  ...readdirSync(SOURCES).map((name) => readFileSync(join(SOURCES, name), "utf8")),
  "## src/a.ts:1-3 (score 0.500)\n\n```ts\n// first\nconst a = 1;\n\n\n  }\n```\n",
  "x\n\n\n/// doc\n//! inner\n/* c */\n  // é indented\nünïcode line\n\t\ttabbed()\n}\n\n",
  "no line breaks at all, just one line of text ~~~ !!! ///",
  "\n\n\n",
];

/** The text cut at `cuts` (ascending, from 0 to its length), each part's count known with probability `known`. */
function partsAt(text: string, cuts: readonly number[], next: () => number, known: number) {
  return cuts.slice(1).map((end, index) => {
    const piece = text.slice(cuts[index], end);
    return next() < known ? { text: piece, tokens: o200kCounter.count(piece) } : { text: piece };
  });
}

describe("counting joined parts", () => {
  it("equals the count of the joined text, whatever the cut and which parts' counts are known", () => {
    const next = random(7);
    for (const text of TEXTS) {
      for (let round = 0; round < 40; round++) {
        const cuts = [
          ...new Set([
            0,
            text.length,
            ...Array.from({ length: 1 + Math.floor(next() * 5) }, () =>
              Math.floor(next() * text.length),
            ),
          ]),
        ].sort((a, b) => a - b);
        expect(countJoined(o200kCounter, partsAt(text, cuts, next, 0.6))).toBe(
          o200kCounter.count(text),
        );
      }
    }
  });

  it("equals the count of the joined text when parts start at line starts (a heading, then a fragment's text)", () => {
    const next = random(11);
    for (const text of TEXTS) {
      const lineStarts = [...text.matchAll(/\n/g)].map((match) => (match.index as number) + 1);
      for (let round = 0; round < 40; round++) {
        const cuts = [...new Set([0, text.length, ...lineStarts.filter(() => next() < 0.3)])].sort(
          (a, b) => a - b,
        );
        expect(countJoined(o200kCounter, partsAt(text, cuts, next, 0.7))).toBe(
          o200kCounter.count(text),
        );
      }
    }
  });

  it("counts the joined text with a counter whose counts do not add up", () => {
    const parts = [{ text: "alpha beta\n" }, { text: "gamma\ndelta\n", tokens: 1 }];
    expect(countJoined(estimateCounter, parts)).toBe(
      estimateCounter.count("alpha beta\ngamma\ndelta\n"),
    );
  });
});
