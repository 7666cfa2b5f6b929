import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { MAX_PIECE_LENGTH } from "../../src/tokens/o200k-merge.js";
import { O200kTable, o200kRanks } from "../../src/tokens/o200k-table.js";
import { o200kWordsFromTable, readWordsFile, wordsFile } from "../../src/tokens/o200k-words.js";
import { WORD_HASH_START, wordHashEnd, wordHashStep } from "../../src/tokens/word-hash.js";

const require = createRequire(import.meta.url);
const gptTokenizer = require("gpt-tokenizer/cjs/encoding/o200k_base") as {
  countTokens(text: string, options?: object): number;
};

/**
 * gpt-tokenizer's o200k count, special tokens counted as the plain text they are:
 * the oracle. Not for text with a byte order mark (U+FEFF): gpt-tokenizer decodes
 * byte pairs with a TextDecoder that drops a leading one, so it never merges the
 * mark with what follows, where tiktoken (and our counter) does.
 */
function reference(text: string): number {
  return gptTokenizer.countTokens(text, { disallowedSpecial: new Set<string>() });
}

const withoutByteOrderMarks = (text: string) => text.replaceAll("\uFEFF", "");

/**
 * Pieces that exercise every branch of o200k's split pattern: words with and
 * without a leading space or punctuation, capitals, contractions, digit runs,
 * punctuation runs ending in line breaks and slashes, every ASCII blank, control
 * characters, special-token text and characters outside ASCII (accents, CJK,
 * emoji, a no-break space, which is a blank outside ASCII).
 */
const PIECES = [
  "a",
  "foo",
  " bar",
  "Baz",
  "HTTP",
  "HTTPResponse",
  "getX",
  "_id",
  ".map",
  "(x",
  "don't",
  "WE'LL",
  "it's",
  "'S",
  "'ve",
  "'re",
  "'d",
  "'",
  "0",
  "12",
  "12345",
  " 7",
  "x2",
  "3D",
  " ",
  "  ",
  "    ",
  "\t",
  "\t\t",
  "\n",
  "\n\n",
  "\r\n",
  "\v",
  "\f",
  " \n",
  "\n    ",
  "(",
  ")",
  ");",
  "});\n",
  "//",
  "/**",
  " * ",
  "*/",
  "/",
  "=>",
  "===",
  "!=",
  "{",
  "}",
  "[]",
  "<|endoftext|>",
  "<|",
  "|>",
  "\u0000",
  "\u001f",
  "\u007f",
  "é",
  "café",
  "日本語",
  "—",
  "😀",
  "\u00a0",
  " ñ",
  "Ω",
  "ß",
];

const textFromPieces = fc
  .array(fc.constantFrom(...PIECES), { maxLength: 60 })
  .map((pieces) => pieces.join(""));

describe("o200kCounter", () => {
  it("counts exactly what gpt-tokenizer counts for any mix of code, prose and other scripts", () => {
    fc.assert(
      fc.property(textFromPieces, (text) => {
        expect(o200kCounter.count(text)).toBe(reference(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("counts exactly for arbitrary ASCII and arbitrary Unicode strings", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary-ascii", maxLength: 200 }),
          fc.string({ unit: "binary", maxLength: 200 }),
        ),
        (generated) => {
          const text = withoutByteOrderMarks(generated);
          expect(o200kCounter.count(text)).toBe(reference(text));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("counts every sample source file and each of its line windows exactly", () => {
    const folder = join(import.meta.dirname, "../fixtures/code");
    for (const name of readdirSync(folder)) {
      const text = readFileSync(join(folder, name), "utf8");
      expect(o200kCounter.count(text), name).toBe(reference(text));
      const lines = text.split("\n");
      for (let start = 0; start < lines.length; start += 3) {
        const window = lines.slice(start, start + 8).join("\n");
        expect(o200kCounter.count(window), `${name}:${start + 1}`).toBe(reference(window));
      }
    }
  });

  // Words around a character outside ASCII are counted apart from the rest of their line,
  // cut at a space after a printable character: no piece spans such a point.
  it("counts the words around a character outside ASCII exactly, cut at the spaces that break pieces", () => {
    for (const text of [
      "## src/ingest/index-resources.ts:207-248 — indexFiles (score 0.200)\n\n```typescript\n",
      "x —y z",
      "a( —) b",
      "foo —\n/bar baz",
      "a\u00a0 —b c",
      "a  — b",
      "end —",
      "— start here",
      "don't —'s it's",
      "12 345 — 6789 0",
      "café au lait, naïve — résumé\n  indented é line\n",
      "x —/ /y",
      "\t— \t—\t",
    ]) {
      expect(o200kCounter.count(text), JSON.stringify(text)).toBe(reference(text));
    }
  });

  it("merges long pieces that are not one token as BPE does", () => {
    for (const text of ["x".repeat(300), "ab".repeat(500), "=".repeat(257), " ".repeat(1000)]) {
      expect(o200kCounter.count(text)).toBe(reference(text));
    }
  });

  it("merges pieces of every length up to thousands of bytes exactly as BPE does", () => {
    let state = 11;
    const pick = (from: string) => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return from[(state >>> 8) % from.length] as string;
    };
    const piece = (alphabet: string, length: number) =>
      Array.from({ length }, () => pick(alphabet)).join("");
    for (const length of [90, 97, 150, 600, 3000]) {
      for (const text of [
        piece("abcdefghijklmnopqrstuvwxyz", length),
        piece("etaoin", length),
        "ab".repeat(length),
        piece("=-+*<>", length),
        piece("\n \t", length),
        [...piece("😀😁😂🤣", length)].join(""),
        piece("日本語中文字", length),
      ]) {
        expect(o200kCounter.count(text), `${length}: ${text.slice(0, 12)}`).toBe(reference(text));
      }
    }
    // One identifier of 20,000 letters (the reference takes about a second on it).
    const identifier = piece("abcdefghijklmnopqrstuvwxyz", 20_000);
    expect(o200kCounter.count(identifier)).toBe(reference(identifier));
  });

  it("counts a piece longer than the bound as its parts, and stops early on it", () => {
    const letters = "qwertyuiopasdfghjklzxcvbnm";
    const long = Array.from({ length: 2 * MAX_PIECE_LENGTH + 777 }, (_, i) =>
      letters.charAt((i * i + 3 * i) % letters.length),
    ).join("");
    const parts = [0, 1, 2].map((part) =>
      long.slice(part * MAX_PIECE_LENGTH, (part + 1) * MAX_PIECE_LENGTH),
    );
    expect(o200kCounter.count(long)).toBe(
      parts.reduce((sum, part) => sum + o200kCounter.count(part), 0),
    );
    expect(o200kCounter.countUpTo?.(long, 800)).toBe(801);
    // One punctuation piece past the bound, with a surrogate pair across it: the pair stays whole.
    const marks = "!".repeat(MAX_PIECE_LENGTH - 1);
    expect(o200kCounter.count(`${marks}😀😀`)).toBe(
      o200kCounter.count(marks) + o200kCounter.count("😀😀"),
    );
  });

  // Each character outside ASCII looked for the next line break (or the previous) over the
  // whole text: 256 KB of such lines took 15 s.
  it("counts lines that each start outside ASCII exactly, in time linear in their number", () => {
    for (const text of [
      "日 a b c\n".repeat(32_000),
      "é x ".repeat(64_000),
      "— a\n/b\n".repeat(20_000),
    ]) {
      expect(o200kCounter.count(text)).toBe(reference(text));
    }
  });

  it("stops early only above the limit: countUpTo is exact up to it", () => {
    fc.assert(
      fc.property(textFromPieces, fc.nat(80), (text, limit) => {
        const exact = reference(text);
        const counted = o200kCounter.countUpTo?.(text, limit) ?? Number.NaN;
        if (exact <= limit) expect(counted).toBe(exact);
        else expect(counted).toBeGreaterThan(limit);
      }),
      { numRuns: 1000 },
    );
  });

  it("reads back the table file written at build time as the same table, and rejects a broken one", () => {
    const ranks = o200kRanks();
    const built = O200kTable.fromRanks(ranks);
    const file = built.toFile();
    const read = O200kTable.fromFile(file);
    expect(read.size).toBe(ranks.length);
    const encoder = new TextEncoder();
    for (let rank = 0; rank < ranks.length; rank += 97) {
      const token = ranks[rank] as string | number[];
      const bytes = typeof token === "string" ? encoder.encode(token) : Uint8Array.from(token);
      expect(read.rankOfBytes(bytes, 0, bytes.length)).toBe(rank);
    }
    expect(read.rankOfAscii("xqzjv-not-a-token", 0, 17)).toBe(-1);
    expect(() => O200kTable.fromFile(file.subarray(0, 1000))).toThrow();
    expect(() => O200kTable.fromFile(new Uint8Array(64))).toThrow();
  });

  it("reads back the word vocabulary saved at build time as the one the table gives, and rejects a broken file", () => {
    const built = o200kWordsFromTable();
    const saved = readWordsFile(
      readFileSync(new URL("../../dist/tokens/o200k-words.bin", import.meta.url)),
    );
    expect(saved).not.toBeNull();
    expect(wordsFile(saved as NonNullable<typeof saved>)).toEqual(wordsFile(built));
    const hash = (word: string) => {
      let h = WORD_HASH_START;
      for (let i = 0; i < word.length; i++) h = wordHashStep(h, word.charCodeAt(i));
      return wordHashEnd(h);
    };
    for (const word of ["function", "Geometry", "return", "the"]) {
      expect(saved?.hasWord(hash(word))).toBe(true);
    }
    expect(saved?.hasWord(hash("xqzjvkwpq"))).toBe(false);
    const file = wordsFile(built);
    expect(readWordsFile(file.subarray(0, file.length - 4))).toBeNull();
    expect(readWordsFile(new Uint8Array(64))).toBeNull();
    expect(readWordsFile(file.subarray(1))).toBeNull();
  });
});
