import { describe, expect, it } from "vitest";
import { packToBudget } from "../../src/assemble/pack-to-budget.js";
import { rendererFor } from "../../src/assemble/renderers.js";
import { worthItsTokens } from "../../src/assemble/worth-its-tokens.js";
import type { ContextFragment } from "../../src/core/fragment.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { fileFragment } from "../helpers/test-strategies.js";

const tokens = (text: string) => o200kCounter.count(text);

describe("fragments that earn their tokens", () => {
  it("keeps a short line of code and drops punctuation, comments, headings and preambles", () => {
    const kept = [
      "    internal static Context None() => [];",
      "}\nreturn cached;",
      "#define MAX_DEPTH 64",
      "name: build",
    ];
    const dropped = [
      "{",
      "/*!",
      "'use strict';",
      "namespace Polly;\n",
      "using System.ComponentModel;\n\nnamespace Polly;\n",
      "## Defaults",
      "# Category : Trimming",
      "// TODO",
      "})();",
      "package okio",
      'import "C"',
    ];
    for (const text of kept)
      expect([text, worthItsTokens(text, tokens(text))]).toEqual([text, true]);
    for (const text of dropped)
      expect([text, worthItsTokens(text, tokens(text))]).toEqual([text, false]);
    // Above the small size a fragment is kept whatever it holds (a licence is judged elsewhere).
    const long = "// ".concat("word ".repeat(20));
    expect(worthItsTokens(long, tokens(long))).toBe(true);
  });

  it("never packs a reduced form that would be only a heading or a preamble", () => {
    const section = (start: number, heading: string): ContextFragment => ({
      ...fileFragment("keyword", "docs/retry.md", start, 1, 1),
      id: `r:docs/retry.md#L${start}-L${start + 40}`,
      source: {
        kind: "file",
        resourceId: "r",
        path: "docs/retry.md",
        startLine: start,
        endLine: start + 40,
        language: "markdown",
      },
      // Lines too long for the budget to hold even the first few of them.
      content: [
        heading,
        ...Array.from({ length: 40 }, () => "The retry delay grows. ".repeat(12)),
      ].join("\n"),
      tokens: 0,
      chunkKind: "section",
    });
    const candidates = [section(1, "## Defaults"), section(50, "## Resources")].map((f) => ({
      ...f,
      tokens: tokens(f.content),
    }));
    // Room for neither section whole: before, each was shown as its heading alone.
    const packed = packToBudget(candidates, {
      task: "retry delay",
      budget: 120,
      limit: 120,
      counter: o200kCounter,
      renderer: rendererFor("json", { explain: false, runs: [] }),
    });
    for (const fragment of packed.fragments)
      expect(worthItsTokens(fragment.content, tokens(fragment.content))).toBe(true);
  });
});
