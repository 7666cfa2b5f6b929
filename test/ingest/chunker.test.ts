import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChunkDraft } from "../../src/core/types.js";
import { DocumentChunker } from "../../src/ingest/chunk/chunk-document.js";
import { DEFAULT_CHUNK_LIMITS } from "../../src/ingest/chunk/chunk-limits.js";
import { firstBranches, separateSignatures } from "../../src/parse/parse-source.js";
import { estimateWithShape } from "../../src/tokens/estimate-counter.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/code/${name}`, import.meta.url), "utf8");
const chunker = new DocumentChunker(DEFAULT_CHUNK_LIMITS, o200kCounter);

/** "kind symbol" of every chunk, and "method child → parent" pairs. */
function outline(chunks: readonly ChunkDraft[]) {
  return {
    symbols: chunks.map((chunk) => `${chunk.kind} ${chunk.symbol}`),
    parents: chunks
      .filter((chunk) => chunk.parent !== null)
      .map((chunk) => `${chunk.symbol} → ${chunks[chunk.parent as number]?.symbol}`),
  };
}

/** Every non-blank line of the file is in some chunk, and chunk content is exactly its lines. */
function expectCoverage(source: string, chunks: readonly ChunkDraft[]) {
  const lines = source.split("\n");
  for (const chunk of chunks) {
    expect(chunk.content).toBe(lines.slice(chunk.startLine - 1, chunk.endLine).join("\n"));
  }
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const covered = chunks.some(
      (chunk) => chunk.startLine <= index + 1 && index + 1 <= chunk.endLine,
    );
    expect(covered, `line ${index + 1} "${line}" is in no chunk`).toBe(true);
  });
}

const CASES: [file: string, language: string, expected: string[], parents: string[]][] = [
  [
    "sample.ts",
    "typescript",
    [
      "class RetryRunner",
      "method constructor",
      "method run",
      "function loadConfig",
      "namespace Legacy",
    ],
    ["constructor → RetryRunner", "run → RetryRunner", "oldRetry → Legacy"],
  ],
  [
    "sample.js",
    "javascript",
    ["function readJson", "class Cache", "method get", "function double"],
    ["constructor → Cache", "get → Cache"],
  ],
  [
    "sample.py",
    "python",
    ["class RetryPolicy", "method __init__", "function with_retries"],
    ["__init__ → RetryPolicy"],
  ],
  ["sample.go", "go", ["type Config", "function Do", "method Total"], []],
  [
    "sample.rs",
    "rust",
    ["type RetryConfig", "impl RetryConfig", "method new", "interface Backoff", "function retry"],
    ["new → RetryConfig", "next_delay → Backoff"],
  ],
  [
    "Sample.java",
    "java",
    ["class RetryRunner", "method RetryRunner", "method run", "interface Listener"],
    ["RetryRunner → RetryRunner", "run → RetryRunner", "Listener → RetryRunner"],
  ],
  [
    "sample.c",
    "c",
    ["type retry_config", "type task_fn", "function retry_run", "function always_ok"],
    [],
  ],
  [
    "sample.cpp",
    "cpp",
    ["namespace retry", "class Runner", "method run", "function clamp_attempts"],
    ["Runner → retry", "run → Runner", "clamp_attempts → retry"],
  ],
  [
    "Sample.cs",
    "csharp",
    ["namespace Example.Retry", "class RetryRunner", "method Run", "interface IBackoff"],
    ["RetryRunner → Example.Retry", "Run → RetryRunner", "IBackoff → Example.Retry"],
  ],
  [
    "sample.rb",
    "ruby",
    ["module Retry", "class Runner", "method initialize", "method run", "method default_runner"],
    ["Runner → Retry", "initialize → Runner", "default_runner → Retry"],
  ],
  [
    "sample.php",
    "php",
    ["class RetryRunner", "method __construct", "method run", "function retry_default"],
    ["__construct → RetryRunner", "run → RetryRunner"],
  ],
];

/** Overloaded call signatures in the no-semicolon style, then a class. */
const OVERLOADS = `import type { Store } from './store'

type Fields = Record<string, string>

interface Lookup<S extends Shape> {
  <Name extends keyof Globals>(name: Name): Globals[Name]
  <Name extends keyof S['vars']>(name: Name): S['vars'][Name]
}

interface Assign<S extends Shape> {
  <Name extends keyof Globals>(name: Name, value: Globals[Name]): void
  <Name extends keyof S['vars']>(name: Name, value: S['vars'][Name]): void
}

interface Plain {
  (body: string, code?: number, fields?: Fields): Reply
  (body: string, init?: ReplyInit): Reply
}

interface Encoded {
  <V = Encodable>(value: V, code?: number, fields?: Fields): Reply
  <V = Encodable>(value: V, init?: ReplyInit): Reply
}

interface TypedEncoded {
  <V>(
    value: Plainly<V> extends Encodable ? V : Encodable,
    code?: number
  ): Typed<
    Plainly<V> extends Encodable
      ? Encodable extends Plainly<V>
        ? never
        : V
      : never
  >
  <V>(
    value: Plainly<V> extends Encodable ? V : Encodable,
    init?: ReplyInit
  ): Typed<
    Plainly<V> extends Encodable
      ? Encodable extends Plainly<V>
        ? never
        : V
      : never
  >
}

interface Markup {
  (markup: string | Promise<string>, code?: number, fields?: Fields):
    | Reply
    | Promise<Reply>
  (markup: string | Promise<string>, init?: ReplyInit): Reply | Promise<Reply>
}

export class Session<S extends Shape = any> {
  lookup: Lookup<S> = (name) => this.vars[name]

  status(code: number): void {
    this.code = code
  }
}
`;

describe("code chunking with tree-sitter", () => {
  it.each(CASES)(
    "%s: splits at definitions and keeps the class → member hierarchy",
    async (file, language, expected, parents) => {
      const source = fixture(file);
      const result = await chunker.chunk(file, source);
      expect(result.language).toBe(language);
      expect(result.method).toBe("syntax");
      const { symbols, parents: actualParents } = outline(result.chunks);
      for (const symbol of expected) {
        const found =
          symbols.some((entry) => entry === symbol) ||
          result.chunks.some((chunk) => chunk.defines.includes(symbol.split(" ")[1] as string));
        expect(found, `${symbol} in ${symbols.join(", ")}`).toBe(true);
      }
      for (const pair of parents) {
        const [child] = pair.split(" → ");
        const merged = result.chunks.find((chunk) => chunk.defines.includes(child as string));
        expect(
          actualParents.includes(pair) || merged !== undefined,
          `${pair} in ${actualParents.join(", ")}`,
        ).toBe(true);
      }
      expectCoverage(source, result.chunks);
    },
  );

  it("records line ranges, kinds and parents exactly for a TypeScript class", async () => {
    const result = await new DocumentChunker(
      { ...DEFAULT_CHUNK_LIMITS, minTokens: 0 },
      o200kCounter,
    ).chunk("sample.ts", fixture("sample.ts"));
    const runner = result.chunks.findIndex(
      (chunk) => chunk.symbol === "RetryRunner" && chunk.kind === "class",
    );
    const run = result.chunks.find((chunk) => chunk.symbol === "run");
    expect(result.chunks[runner]).toMatchObject({ startLine: 16, endLine: 19, parent: null });
    expect(run).toMatchObject({ kind: "method", startLine: 24, endLine: 34, parent: runner });
    expect(run?.content.startsWith("  async run<T>(task: () => Promise<T>): Promise<T> {")).toBe(
      true,
    );
  });

  it("splits an oversized function into parts that repeat its signature", async () => {
    const body = Array.from({ length: 400 }, (_, i) => `  total += compute${i}(input, ${i});`).join(
      "\n",
    );
    const source = `export function hugeFunction(input: number): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
    const limits = { ...DEFAULT_CHUNK_LIMITS, maxTokens: 300 };
    const result = await new DocumentChunker(limits, o200kCounter).chunk("huge.ts", source);
    expect(result.chunks.length).toBeGreaterThan(3);
    const [first, ...rest] = result.chunks;
    expect(first?.header).toBe("");
    for (const part of rest) {
      expect(part.symbol).toBe("hugeFunction");
      expect(part.header).toBe("export function hugeFunction(input: number): number {");
      expect(o200kCounter.count(`${part.header}\n${part.content}`)).toBeLessThanOrEqual(300);
    }
    // Consecutive parts: each starts where the previous ended.
    result.chunks.slice(1).forEach((part, index) => {
      expect(part.startLine).toBe((result.chunks[index]?.endLine ?? 0) + 1);
    });
  });

  it("reads TypeScript overloads written without semicolons, keeping every line where it was", async () => {
    // tree-sitter's grammar takes each `<V>(…)` line for the rest of the one before; its
    // recovery here wraps the whole file in one error node, and the class is lost.
    const source = OVERLOADS;
    const result = await new DocumentChunker(
      { ...DEFAULT_CHUNK_LIMITS, minTokens: 0 },
      o200kCounter,
    ).chunk("session.ts", source);
    const status = result.chunks.find((chunk) => chunk.symbol === "status");
    expect(status).toMatchObject({ kind: "method", startLine: 58, endLine: 60 });
    expect(status?.content.startsWith("  status(code: number): void {")).toBe(true);
    expect(result.graph?.definitions.map((d) => `${d.kind} ${d.name}`)).toEqual(
      expect.arrayContaining(["class Session", "method lookup", "method status"]),
    );
    expectCoverage(source, result.chunks);
  });

  it("separates only signatures that follow a finished line, in place of a space", () => {
    const source =
      "interface A {\n  <K>(k: K): Promise<V>\n  <K>(k: K, v: V): void\n}\nconst f =\n  <T>(x: T) => x\nconst g = (a: number) =>\n  <T>(b: T) => b\n";
    const separated = separateSignatures(source);
    expect(separated.length).toBe(source.length);
    expect(separated.split("\n")).toEqual([
      "interface A {",
      "  <K>(k: K): Promise<V>",
      "; <K>(k: K, v: V): void",
      "}",
      "const f =",
      "  <T>(x: T) => x",
      "const g = (a: number) =>",
      "  <T>(b: T) => b",
      "",
    ]);
  });

  it("reads C whose braces are split across #ifdef branches as the compiler does with the first", async () => {
    // jq's printer opens an `else {` under `#ifdef USE_DECNUM` and closes it under another;
    // its main opens `umain` under `#ifdef WIN32` and `main` under `#else`.
    const source = [
      "static void dump(double x, int flags) {",
      "  switch (flags) {",
      "  case 1: {",
      "#ifdef USE_DECNUM",
      "    if (literal(x)) {",
      "      put(x);",
      "    } else {",
      "#endif",
      "      put_double(x);",
      "#ifdef USE_DECNUM",
      "    }",
      "#endif",
      "    break;",
      "  }",
      "  }",
      "}",
      "",
      "void dumpf(double x, int flags) {",
      "  dump(x, flags);",
      "}",
      "",
      "#ifdef WIN32",
      "int umain(int argc, char* argv[]) {",
      "#else /*}*/",
      "int main(int argc, char* argv[]) {",
      "#endif",
      "  dumpf(1.0, argc);",
      "  return 0;",
      "}",
      "",
      "int after_main(void) {",
      "  return 1;",
      "}",
      "",
    ].join("\n");
    const { chunks } = await chunker.chunk("src/print.c", source);
    const spans = chunks
      .filter((chunk) => chunk.kind === "function")
      .map((chunk) => `${chunk.symbol} ${chunk.startLine}-${chunk.endLine}`);
    expect(spans).toEqual(["dump 1-17", "dumpf 18-22", "umain 23-30", "after_main 31-33"]);
    // The chunks hold the file's own lines, directives and the other branch included.
    expectCoverage(source, chunks);
  });

  it("keeps each conditional's first branch, or the one after an #if 0, blanking the rest in place", () => {
    const source = [
      "#if defined(A) && \\",
      "    defined(B)",
      "int a(void) { return 1; }",
      "#elif defined(C)",
      "int c;",
      "#else",
      "int d;",
      "#endif",
      "#if 0 // old",
      "int old;",
      "#else",
      "int now;",
      "#endif",
      "#define KEPT 1",
      "#ifdef _WIN32",
      "int wmain(void) {",
      "#else",
      "int main(void) {",
      "#endif",
      "  return 0;",
      "}",
    ].join("\n");
    const read = firstBranches(source);
    expect(read.length).toBe(source.length);
    expect(read.split("\n").map((line) => line.trim())).toEqual([
      "",
      "",
      "int a(void) { return 1; }",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "int now;",
      "",
      "#define KEPT 1",
      "",
      "int wmain(void) {",
      "",
      "",
      "",
      "return 0;",
      "}",
    ]);
  });

  it("reads a .h header written in C++ as C++ (its class and methods), and a C header as C", async () => {
    const cpp = await chunker.chunk(
      "include/shape.h",
      "#pragma once\nnamespace geo {\nclass Shape {\n public:\n  double area() const { return w * h; }\n  double w = 1, h = 1;\n};\n}\n",
    );
    expect(cpp.language).toBe("cpp");
    expect(outline(cpp.chunks).symbols).toContain("class Shape");
    const c = await chunker.chunk(
      "include/queue.h",
      "#include <stdlib.h>\n/* a class of queues, for the namespace of jobs */\nstruct queue { int size; };\nint queue_push(struct queue *q, int v);\n",
    );
    expect(c.language).toBe("c");
  });

  it("falls back to line windows for code the parser cannot read and for unknown files", async () => {
    const text = Array.from(
      { length: 300 },
      (_, i) => `line ${i} of some configuration value`,
    ).join("\n");
    const result = await new DocumentChunker(
      { ...DEFAULT_CHUNK_LIMITS, maxTokens: 200 },
      o200kCounter,
    ).chunk("settings.conf", text);
    expect(result.method).toBe("windows");
    expect(result.chunks.length).toBeGreaterThan(5);
    // Windows overlap by the configured number of lines.
    expect(result.chunks[1]?.startLine).toBe(
      (result.chunks[0]?.endLine ?? 0) + 1 - DEFAULT_CHUNK_LIMITS.overlapLines,
    );
  });
});

describe("SQL", () => {
  const schema = [
    "-- Users of the shop.",
    "CREATE TABLE IF NOT EXISTS public.users (",
    "  id bigserial PRIMARY KEY,",
    "  email text NOT NULL UNIQUE, -- lower-cased; see normalize_email()",
    "  note text DEFAULT 'it''s; fine'",
    ");",
    "",
    "CREATE INDEX users_email_idx ON users (email);",
    "",
    "/* Orders: one row per checkout;",
    "   totals in cents. */",
    'CREATE TABLE "orders" (',
    "  id bigserial PRIMARY KEY,",
    "  user_id bigint REFERENCES users(id)",
    ");",
    "",
    "CREATE OR REPLACE FUNCTION normalize_email(raw text) RETURNS text AS $$",
    "BEGIN",
    "  RETURN lower(trim(raw)); -- a ; inside the body",
    "END;",
    "$$ LANGUAGE plpgsql;",
    "",
    "INSERT INTO users (email) VALUES ('a@example.com'); INSERT INTO users (email) VALUES ('b@example.com');",
    "",
    "DELIMITER //",
    "CREATE PROCEDURE archive_orders()",
    "BEGIN",
    "  DELETE FROM orders WHERE id < 10;",
    "  SELECT 1;",
    "END //",
    "DELIMITER ;",
    "",
    "SELECT price$eur$ FROM v$prices;",
    "CREATE VIEW cheap AS SELECT 1;",
    "SELECT * FROM users",
  ].join("\n");

  it("cuts at statements, past semicolons in strings, comments and $$ bodies, and names what each creates", async () => {
    const apart = new DocumentChunker(
      { ...DEFAULT_CHUNK_LIMITS, minTokens: 1, packStatementsUpTo: 0 },
      o200kCounter,
    );
    const result = await apart.chunk("db/schema.sql", schema);
    expect(result.method).toBe("statements");
    expectCoverage(schema, result.chunks);
    expect(result.chunks.map((c) => `${c.startLine}-${c.endLine} ${c.kind} ${c.symbol}`)).toEqual([
      "1-6 type public.users",
      "7-8 section users_email_idx",
      "9-15 type orders",
      "16-21 function normalize_email",
      "22-23 code ",
      "24-25 code ",
      "26-30 function archive_orders",
      "31-31 code ",
      "32-33 code ",
      "34-34 type cheap",
      "35-35 code ",
    ]);
    // By default small statements are packed together, up to half a chunk.
    const packed = await chunker.chunk("db/schema.sql", schema);
    expect(packed.chunks.map((c) => [c.symbol, ...c.defines])).toEqual([
      ["public.users", "users_email_idx", "orders", "normalize_email", "archive_orders", "cheap"],
    ]);
  });

  it("cuts a statement too large for one chunk in parts that repeat its first line", async () => {
    const rows = Array.from({ length: 400 }, (_, i) => `  ('user${i}@example.com', 'note ${i}'),`);
    const dump = [
      "INSERT INTO users (email, note) VALUES",
      ...rows,
      "  ('last@example.com', 'x');",
    ].join("\n");
    const limits = { ...DEFAULT_CHUNK_LIMITS, maxTokens: 300 };
    const result = await new DocumentChunker(limits, o200kCounter).chunk("seed.sql", dump);
    expect(result.chunks.length).toBeGreaterThan(5);
    for (const chunk of result.chunks) expect(chunk.tokens).toBeLessThanOrEqual(300);
    expect(result.chunks[1]?.header).toBe("INSERT INTO users (email, note) VALUES");
    expect(result.chunks[1]?.content).toMatch(/^ {2}\('user\d+@example.com'/);
  });
});

describe("JSON", () => {
  it("cuts at keys, descending into a member too large for one chunk, and names each chunk by the keys it holds", async () => {
    const messages = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [
        `error${i}`,
        `Could not read entry ${i}: check its format`,
      ]),
    );
    const labels = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [`label${i}`, `Label ${i}`]),
    );
    const source = [
      "// Messages shown to users (comments as in tsconfig.json are allowed).",
      JSON.stringify(
        { name: "shop", messages, labels, 'weird \\"key\\" {': { ...labels, ok: true } },
        null,
        2,
      ),
    ].join("\n");
    const limits = { ...DEFAULT_CHUNK_LIMITS, maxTokens: 300 };
    const result = await new DocumentChunker(limits, o200kCounter).chunk("locales/en.json", source);
    expect(result.method).toBe("keys");
    expectCoverage(source, result.chunks);
    for (const chunk of result.chunks) expect(chunk.tokens).toBeLessThanOrEqual(300);
    // Cut between members: every chunk starts at a key line, never inside a value.
    const lines = source.split("\n");
    for (const chunk of result.chunks.slice(1)) {
      expect(lines[chunk.startLine - 1]).toMatch(/^\s+"[^"]+": |^\s*\}/);
    }
    const symbols = result.chunks.map((c) => c.symbol);
    expect(symbols).toContain("messages");
    expect(symbols).toContain("labels");
    // Packed: far fewer chunks than the 120 members, and no chunk named by each of them.
    expect(result.chunks.length).toBeLessThan(12);
    expect(result.chunks.every((c) => c.defines.length === 0)).toBe(true);
    const last = result.chunks[result.chunks.length - 1];
    expect(last?.symbol).toBe('weird \\"key\\" {');
    expect(last?.content.trimEnd().endsWith("}")).toBe(true);
  });

  it("keeps a small file whole, and cuts a one-line file and a file cut short without losing a line", async () => {
    const small = '{\n  "compilerOptions": { "strict": true },\n  "include": ["src"]\n}\n';
    const whole = await chunker.chunk("tsconfig.json", small);
    expect(whole.chunks.map((c) => [c.startLine, c.endLine])).toEqual([[1, 4]]);

    const records = Array.from({ length: 300 }, (_, i) => ({ id: i, name: `item ${i}` }));
    const minified = JSON.stringify({ records });
    const limits = { ...DEFAULT_CHUNK_LIMITS, maxTokens: 300 };
    const oneLine = await new DocumentChunker(limits, o200kCounter).chunk("data.json", minified);
    expect(oneLine.chunks.length).toBeGreaterThan(5);
    expect(oneLine.chunks.map((c) => c.content).join("")).toBe(minified);

    const broken = JSON.stringify({ a: { records }, b: 1 }, null, 2).slice(0, -300);
    const cutShort = await new DocumentChunker(limits, o200kCounter).chunk("broken.json", broken);
    expectCoverage(broken, cutShort.chunks);
    expect(cutShort.chunks.map((c) => c.symbol)).toContain("a.records");
  });
});

describe("Markdown chunking", () => {
  it("splits at headings, keeps the heading chain and ignores headings in code fences", async () => {
    const source = [
      "Intro text.",
      "",
      "# Guide",
      "Welcome.",
      "",
      "## Install",
      "```sh",
      "# not a heading",
      "npm install",
      "```",
      "",
      "### Linux",
      "apt details",
      "",
      "## Usage",
      "Run it.",
      "",
      "Setext Title",
      "============",
      "text",
    ].join("\n");
    const result = await new DocumentChunker(
      { ...DEFAULT_CHUNK_LIMITS, minTokens: 0 },
      o200kCounter,
    ).chunk("README.md", source);
    expect(result.method).toBe("markdown");
    expect(result.chunks.map((chunk) => chunk.symbol)).toEqual([
      "",
      "Guide",
      "Guide > Install",
      "Guide > Install > Linux",
      "Guide > Usage",
      "Setext Title",
    ]);
    const linux = result.chunks[3];
    expect(result.chunks[linux?.parent as number]?.symbol).toBe("Guide > Install");
    expect(result.chunks[2]).toMatchObject({ startLine: 6, endLine: 11, kind: "section" });
  });
});

/** Chunks `text` at `maxTokens` and checks every chunk, header included, by exact o200k count. */
async function expectChunksWithin(
  file: string,
  text: string,
  maxTokens: number,
): Promise<ChunkDraft[]> {
  const limits = { ...DEFAULT_CHUNK_LIMITS, maxTokens };
  const result = await new DocumentChunker(limits, o200kCounter).chunk(file, text);
  for (const chunk of result.chunks) {
    const indexed = chunk.header ? `${chunk.header}\n${chunk.content}` : chunk.content;
    expect(o200kCounter.count(indexed)).toBeLessThanOrEqual(maxTokens);
  }
  return result.chunks;
}

describe("chunk size", () => {
  it("never exceeds the configured token limit, whatever the text", async () => {
    const line = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.string({ unit: "grapheme", maxLength: 80 }),
      fc.base64String({ maxLength: 3000 }),
      fc.constantFrom(
        "function f(a, b) {",
        "  return a + b;",
        "}",
        "",
        "# Heading",
        "class A:",
        "    def m(self):",
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 120 }),
        fc.constantFrom("x.ts", "x.py", "x.md", "x.txt"),
        fc.integer({ min: 32, max: 400 }),
        async (lines, file, maxTokens) => {
          await expectChunksWithin(file, lines.join("\n"), maxTokens);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("chunk size on text the vocabulary does not know", () => {
  const letters = [..."abcdefghijklmnopqrstuvwxyzKQXZJ"];
  const randomWord = fc
    .array(fc.constantFrom(...letters), { minLength: 1, maxLength: 12 })
    .map((chars) => chars.join(""));
  const madeUpWord = fc
    .array(fc.tuple(fc.constantFrom(..."bcdfghklmnprstvz"), fc.constantFrom(..."aeiou")), {
      minLength: 2,
      maxLength: 5,
    })
    .map((syllables) => syllables.map(([c, v]) => c + v).join(""));
  const line = fc
    .tuple(
      fc.array(fc.oneof(randomWord, madeUpWord), { minLength: 1, maxLength: 8 }),
      fc.constantFrom(" ", ".", "_", ", "),
    )
    .map(([words, separator]) => words.join(separator));

  it("never exceeds the limit on random letter strings and made-up words", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 20, maxLength: 200 }),
        fc.constantFrom("x.ts", "x.txt", "x.md"),
        fc.integer({ min: 32, max: 400 }),
        async (lines, file, maxTokens) => {
          await expectChunksWithin(file, lines.join("\n"), maxTokens);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("chunk size outside ASCII", () => {
  it("cuts a short line of costly characters below sixteen characters, keeping pairs whole", async () => {
    // Found by the property test: 14 characters that cost 30 tokens, under a 3-token header.
    const line = "!ࠁƀĤ⟂𐀀𐀀⍀𐀀𐀀";
    const chunks = await expectChunksWithin("x.md", `# Heading\n${line}`, 32);
    expect(chunks.length).toBeGreaterThan(2);
    const pieces = chunks.slice(1).map((chunk) => chunk.content);
    expect(pieces.join("")).toBe(line);
    for (const piece of pieces) expect(piece).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
  });

  it("counts braille, CJK and symbol lines exactly, where BPE spends bytes, not characters", async () => {
    const braille = "⠓⠑⠇⠇⠕⠀⠍⠽⠀⠝⠁⠍⠑⠀⠊⠎⠀⠃⠑⠑⠀⠁⠝⠙⠀⠊⠀⠇⠊⠅⠑⠀⠙⠕⠛";
    const lines = Array.from({ length: 40 }, (_, i) =>
      i % 5 === 4
        ? `    y${i} = "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ∮ ⊕ 漢字テキスト"`
        : `    x${i} = "${braille}${i % 3 === 0 ? braille : ""}"`,
    );
    const source = `def table():\n${lines.join("\n")}\n    return x0\n`;
    for (const maxTokens of [64, 100, 160]) {
      const chunks = await expectChunksWithin("table.py", source, maxTokens);
      expect(chunks.length).toBeGreaterThan(1);
    }
  });
});

describe("token counting", () => {
  it("tells words o200k knows from made-up ones, as BPE cuts them", () => {
    const vocabulary = o200kCounter.vocabulary?.() ?? null;
    const shape = { letters: 0, vowels: 0, longestRun: 0, wide: 0, unknownLetters: 0 };
    estimateWithShape("  const geometry = new BufferGeometry(width, height);", shape, vocabulary);
    expect(shape.unknownLetters).toBe(0);
    estimateWithShape("bakotimu rezanivo qxzvbk", shape, vocabulary);
    expect(shape.unknownLetters).toBe(shape.letters);
    estimateWithShape("bakotimu rezanivo qxzvbk", shape, null);
    expect(shape.unknownLetters).toBe(0);
  });

  it("counts text that mentions a special token as plain text", () => {
    expect(o200kCounter.count("model stops at <|endoftext|> here")).toBeGreaterThan(5);
    expect(o200kCounter.countUpTo?.("<|endoftext|>", 100)).toBeGreaterThan(1);
  });
});
