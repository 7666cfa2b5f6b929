import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reduceDetail } from "../../src/assemble/detail-depth.js";
import type { ContextFragment } from "../../src/core/fragment.js";
import type { ChunkKind } from "../../src/core/types.js";

function fragment(content: string, kind: ChunkKind, startLine = 10): ContextFragment {
  const endLine = startLine + content.split("\n").length - 1;
  return {
    id: `r:a.ts#L${startLine}-L${endLine}`,
    source: {
      kind: "file",
      resourceId: "r",
      path: "a.ts",
      startLine,
      endLine,
      language: "typescript",
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
        (parts, kind, depth) => {
          const whole = fragment(parts.join(""), kind);
          const reduced = reduceDetail(whole, depth);
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
