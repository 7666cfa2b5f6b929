import { describe, expect, it } from "vitest";
import { DocumentChunker, MAX_PARSED_CHARS } from "../../src/ingest/chunk/chunk-document.js";
import { DEFAULT_CHUNK_LIMITS } from "../../src/ingest/chunk/chunk-limits.js";
import { estimateTokens } from "../../src/tokens/estimate-counter.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";

const chunker = new DocumentChunker(DEFAULT_CHUNK_LIMITS, o200kCounter);
const { maxTokens } = DEFAULT_CHUNK_LIMITS;

function letters(length: number, alphabet: string, seed = 5): string {
  let state = seed;
  let text = "";
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    text += alphabet[(state >>> 8) % alphabet.length];
  }
  return text;
}

/**
 * One line of 256 KB each: an identifier (one BPE piece a quarter of a million
 * letters long, which took about a minute to index), minified code, characters
 * outside ASCII, and punctuation, as code (parsed), text (windows) and Markdown.
 */
const LONG_LINES: [name: string, path: string, line: string][] = [
  ["identifier", "long.ts", `const ${letters(256 * 1024, "abcdefghijklmnopqrstuvwxyz")} = 1;`],
  ["identifier", "long.txt", letters(256 * 1024, "abcdefghijklmnopqrstuvwxyz")],
  ["identifier", "long.md", `# Title\n\n${letters(256 * 1024, "etaoinshrdlu")}`],
  [
    "minified code",
    "min.js",
    Array.from({ length: 6000 }, (_, i) => `var a${i}=function(x){return x+${i}};`).join(""),
  ],
  ["CJK", "cjk.txt", letters(128 * 1024, "日本語中文字汉字")],
  ["punctuation", "marks.js", letters(256 * 1024, "=-+*<>")],
];

describe("documents built to make chunking slow", () => {
  for (const [name, path, line] of LONG_LINES) {
    it(`cuts one long line of ${name} (${path}) into chunks within the limit, losing nothing`, async () => {
      const { chunks } = await chunker.chunk(path, line);
      expect(chunks.length).toBeGreaterThan(10);
      for (const chunk of chunks) {
        expect(chunk.tokens).toBeLessThanOrEqual(maxTokens);
        expect(o200kCounter.count(chunk.content)).toBeLessThanOrEqual(maxTokens);
      }
      // Pieces of the long line follow each other in order, and hold all of it.
      const text = chunks.map((chunk) => chunk.content).join("");
      expect(text.replaceAll("\n", "")).toContain(line.slice(line.lastIndexOf("\n") + 1));
    }, 30_000);
  }

  // Estimated at one token a run, such a line was one chunk of a megabyte (7,800 tokens of spaces).
  it("cuts a line of a million blanks between words into chunks within the limit, keeping the words", async () => {
    const line = `start ${" ".repeat(600_000)} middle ${"\t".repeat(400_000)} end`;
    const { chunks } = await chunker.chunk("blanks.txt", `${line}\nnext line\n`);
    for (const chunk of chunks) {
      expect(chunk.tokens).toBeLessThanOrEqual(maxTokens);
      expect(o200kCounter.count(chunk.content)).toBeLessThanOrEqual(maxTokens);
    }
    const words = chunks.flatMap((chunk) => chunk.content.split(/\s+/).filter(Boolean));
    expect(words).toEqual(["start", "middle", "end", "next", "line"]);
  }, 30_000);

  it("estimates long blank runs near o200k's count, and short ones at one token as before", () => {
    for (const blank of [" ", "\t"]) {
      for (const length of [300, 5000, 100_000]) {
        const text = `a${blank.repeat(length)}b`;
        const exact = o200kCounter.count(text);
        expect(estimateTokens(text), `${length} × ${JSON.stringify(blank)}`).toBeGreaterThanOrEqual(
          exact,
        );
        expect(estimateTokens(text)).toBeLessThanOrEqual(exact * 1.25 + 2);
      }
    }
    // Alignment in code: one token for the run, as ordinary files were always estimated.
    expect(estimateTokens(`a${" ".repeat(200)}b`)).toBe(3);
    expect(estimateTokens(`a${"\t".repeat(24)}b`)).toBe(3);
  });

  it("chunks code longer than the parse bound in line windows, without a syntax tree", async () => {
    const functions = (count: number) =>
      Array.from({ length: count }, (_, i) => `function f${i}(x) {\n  return x * ${i};\n}\n`).join(
        "",
      );
    const small = await chunker.chunk("small.js", functions(50));
    expect(small.method).toBe("syntax");
    expect(small.graph).not.toBeNull();
    const source = functions(Math.ceil(MAX_PARSED_CHARS / 30));
    expect(source.length).toBeGreaterThan(MAX_PARSED_CHARS);
    const large = await chunker.chunk("large.js", source);
    expect(large.method).toBe("windows");
    expect(large.graph).toBeNull();
    expect(large.chunks.every((chunk) => chunk.kind === "window")).toBe(true);
    expect(large.chunks.at(-1)?.endLine).toBe(source.split("\n").length - 1);
  }, 30_000);

  // Its title pattern backtracks over blanks: 100k spaces took about 25 s.
  it("reads a Markdown line too long to be a heading as text, at once", async () => {
    const line = `# x${" ".repeat(100_000)}y`;
    const { chunks } = await chunker.chunk("notes.md", `${line}\n\n## Real heading\n\nbody\n`);
    // The long line is a section without a name (cut in pieces); the short one after it is a heading.
    const names = new Set(chunks.flatMap((chunk) => [chunk.symbol, ...chunk.defines]));
    expect([...names]).toEqual(["", "Real heading"]);
  });
});
