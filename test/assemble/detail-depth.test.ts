import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkWithin } from "../../src/assemble/chunk-fragments.js";
import { reduceDetail } from "../../src/assemble/detail-depth.js";
import type { ContextFragment } from "../../src/core/fragment.js";
import type { ChunkKind, StoredChunk } from "../../src/core/types.js";
import { queryTerms } from "../../src/text/code-tokenizer.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";

function fragment(
  content: string,
  kind: ChunkKind,
  startLine = 10,
  language = "typescript",
): ContextFragment {
  const endLine = startLine + content.split("\n").length - 1;
  return {
    id: `r:a.ts#L${startLine}-L${endLine}`,
    source: {
      kind: "file",
      resourceId: "r",
      path: "a.ts",
      startLine,
      endLine,
      language,
    },
    content,
    tokens: 0,
    score: 1,
    strategy: "test",
    tier: "warm",
    nodeId: "r:a.ts#00000010",
    detailDepth: "full",
    symbol: "run",
    chunkKind: kind,
    chunkIds: [1],
  };
}

const TS_METHOD = [
  "  /**",
  "   * Runs the task again when it fails.",
  "   */",
  "  async run<T>(",
  "    task: () => Promise<T>,",
  "  ): Promise<T> {",
  "    let last: unknown;",
  "    for (let i = 0; i < 3; i++) {",
  "      try { return await task(); } catch (error) { last = error; }",
  "    }",
  "    throw last;",
  "  }",
].join("\n");

describe("reduceDetail", () => {
  it("keeps the doc comment and the whole signature, as an exact line range", () => {
    const signature = reduceDetail(fragment(TS_METHOD, "method"), "signature");
    expect(signature?.content).toBe(TS_METHOD.split("\n").slice(0, 6).join("\n"));
    expect(signature?.source).toMatchObject({ startLine: 10, endLine: 15 });
    expect(signature?.detailDepth).toBe("signature");
    expect(signature?.id).toBe("r:a.ts#L10-L15");
  });

  it("outlines a definition as its declaration line", () => {
    const outline = reduceDetail(fragment(TS_METHOD, "method"), "outline");
    expect(outline?.content).toBe("  async run<T>(");
    expect(outline?.source).toMatchObject({ startLine: 13, endLine: 13 });
  });

  it("keeps a Python docstring with the signature", () => {
    const python = [
      "def retry(fn, attempts=3):",
      '    """Call fn until it succeeds.',
      "",
      '    Gives up after `attempts`."""',
      "    for _ in range(attempts):",
      "        fn()",
    ].join("\n");
    expect(reduceDetail(fragment(python, "function", 1), "signature")?.content).toBe(
      python.split("\n").slice(0, 4).join("\n"),
    );
  });

  it("gives the head of text that is not a definition, and nothing when it would not shrink", () => {
    const text = Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n");
    expect(reduceDetail(fragment(text, "window"), "signature")?.content.split("\n")).toHaveLength(
      6,
    );
    expect(reduceDetail(fragment("one line", "window"), "outline")).toBeNull();
  });

  it("cuts a later part of a cut definition, and loose code, down to its lines that hold the task's terms", () => {
    // The middle of a long function: its first lines are no signature and its first line outlines nothing.
    const middle = ["    p->curr_buf = 0;", "    p->curr_buf_pos = 0;", ...TS_METHOD.split("\n")];
    const part = { ...fragment(middle.join("\n"), "function"), continued: true };
    const focus = new Set(queryTerms("Retry the task when it fails"));
    expect(reduceDetail(part, "outline", focus)?.content).toBe(middle[3]);
    expect(reduceDetail(part, "outline", focus)?.source).toMatchObject({
      startLine: 13,
      endLine: 13,
    });
    expect(reduceDetail(part, "signature", focus)?.content).toBe(middle.slice(3, 7).join("\n"));
    // Nothing of the task in it: its first lines, as before.
    expect(reduceDetail(part, "outline", new Set(["socket"]))?.content).toBe(middle[0]);
    const loose = [
      "        cookies",
      "      );",
      "      request.send(data);",
      "      done();",
    ].join("\n");
    expect(reduceDetail(fragment(loose, "code"), "outline", new Set(["send"]))?.content).toBe(
      "      request.send(data);",
    );
    // A definition keeps its own declaration whatever the task says.
    expect(reduceDetail(fragment(TS_METHOD, "method"), "outline", focus)?.content).toBe(
      "  async run<T>(",
    );
  });

  it("offers a stored part after the first of a cut function cut down to what the task asks", () => {
    const stored = (header: string): StoredChunk => ({
      id: 7,
      documentId: 1,
      resourceId: "r",
      path: "a.ts",
      language: "typescript",
      startLine: 10,
      endLine: 21,
      kind: "method",
      symbol: "run",
      parentId: null,
      parentSymbol: "",
      content: TS_METHOD,
      header,
      defines: [],
      context: null,
      contextStatus: null,
      hash: "h",
      tokens: 90,
    });
    const focus = new Set(queryTerms("throw the last error"));
    // The first part holds the signature; a later one only repeats it in its header.
    expect(chunkWithin(stored(""), 1, "test", o200kCounter, 40, focus)?.content).toBe(
      TS_METHOD.split("\n").slice(0, 6).join("\n"),
    );
    const later = chunkWithin(stored("  async run<T>("), 1, "test", o200kCounter, 60, focus);
    expect(later?.detailDepth).toBe("signature");
    expect(later?.content).toBe(TS_METHOD.split("\n").slice(6, 11).join("\n"));
  });

  it("outlines C written GNU style by its type and name, and skips C#'s attributes", () => {
    const gnu = ["static int", "check_literal(struct jv_parser* p) {", "  return 0;", "}"].join(
      "\n",
    );
    expect(reduceDetail(fragment(gnu, "function", 1, "c"), "outline")?.content).toBe(
      "static int\ncheck_literal(struct jv_parser* p) {",
    );
    const test = [
      "    [Fact]",
      '    [Trait("Category", "Slow"), Obsolete]',
      "    public void Should_retry()",
      "    {",
      "        Assert.True(true);",
      "    }",
    ].join("\n");
    expect(reduceDetail(fragment(test, "method", 1, "csharp"), "outline")?.content).toBe(
      "    public void Should_retry()",
    );
  });

  it("keeps exactly the original lines its range names, whatever the text", () => {
    const piece = fc.constantFrom(
      "\n",
      "\r\n",
      " ",
      "/**",
      "*/",
      " * doc",
      "// c",
      "@dec",
      "#",
      '"""',
      "def f(a):",
      "run(",
      ") {",
      "=>",
      "x = 1",
      "",
    );
    // Most texts reduce: a property met only by texts that do not would hold of nothing.
    let reducedTexts = 0;
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }),
        fc.constantFrom<ChunkKind>("function", "method", "class", "section", "code"),
        fc.constantFrom("signature" as const, "outline" as const),
        // Cut down by the task's words too, as a later part of a cut definition is.
        fc.option(fc.constant(new Set(["run", "x", "doc"])), { nil: undefined }),
        fc.boolean(),
        (parts, kind, depth, focus, continued) => {
          const whole = { ...fragment(parts.join(""), kind), ...(continued ? { continued } : {}) };
          const reduced = reduceDetail(whole, depth, focus);
          if (reduced?.source.kind !== "file" || whole.source.kind !== "file") return;
          reducedTexts++;
          const from = reduced.source.startLine - whole.source.startLine;
          const to = reduced.source.endLine - whole.source.startLine;
          const lines = whole.content.split("\n");
          expect(from).toBeGreaterThanOrEqual(0);
          expect(to).toBeLessThan(lines.length);
          expect(reduced.content).toBe(lines.slice(from, to + 1).join("\n"));
          expect(to - from + 1).toBeLessThan(lines.length);
        },
      ),
      { numRuns: 2000 },
    );
    expect(reducedTexts).toBeGreaterThan(500);
  });
});
