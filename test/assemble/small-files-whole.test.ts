import { describe, expect, it } from "vitest";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

interface JsonFragment {
  path: string;
  startLine: number;
  endLine: number;
  ranking: string[];
}

// A task about one function of a small file: the file's other functions match none of its
// words and call nothing of it, so no search or walk offers them.
const helper = (name: string, body: string) =>
  [
    `export function ${name}(value: number): number {`,
    ...Array.from({ length: 8 }, (_, i) => `  value = ${body}(value, ${i + 1});`),
    "  return value;",
    "}",
    "",
  ].join("\n");
const PRICING = [
  "export function applyDiscountCode(total: number, code: string): number {",
  '  if (code === "HALF") return total / 2;',
  "  return total;",
  "}",
  "",
  helper("roundCents", "Math.round"),
  helper("clampPrice", "Math.min"),
  helper("scaleForTax", "Math.max"),
].join("\n");
const PRICING_LINES = PRICING.split("\n").length;
/** Four lines each: a table over half of a 4,000-token budget. */
const TABLE_ENTRIES = 160;

const linesOf = (fragments: JsonFragment[], path: string): Set<number> => {
  const lines = new Set<number>();
  for (const fragment of fragments)
    if (fragment.path === path)
      for (let line = fragment.startLine; line <= fragment.endLine; line++) lines.add(line);
  return lines;
};

async function answer(budget: number): Promise<JsonFragment[]> {
  const root = tempDir();
  writeFiles(root, {
    "src/pricing.ts": PRICING,
    // A big file among the first: over half the budget, never shown whole.
    "src/table.ts": Array.from(
      { length: TABLE_ENTRIES },
      (_, i) =>
        `/** Entry ${i} of the table. */\nexport function normalizeEntry${i}(entry: string): string {\n  return entry.trim().slice(${i});\n}\n`,
    )
      .concat([
        "/** Lower-case codes are upper-cased. */\nexport function caseOfCodes(code: string): string {\n  return code.toUpperCase();\n}\n",
      ])
      .join("\n"),
    "docs/notes.md": "# Notes\n\nNothing about prices here.\n",
  });
  const engine = await indexedEngine(root);
  const result = await engine.query({
    task: "applyDiscountCode ignores lower-case codes",
    budget,
    format: "json",
    explain: true,
  });
  return (JSON.parse(result.output) as { fragments: JsonFragment[] }).fragments;
}

describe("a small file among the first of the ranking", () => {
  it("is shown whole, after what the task matched, where the budget allows", async () => {
    const fragments = await answer(4000);
    expect(fragments[0]?.path).toBe("src/pricing.ts");
    const shown = linesOf(fragments, "src/pricing.ts");
    // Every line of the file: the functions the task does not name included.
    for (let line = 1; line < PRICING_LINES; line++) expect(shown.has(line)).toBe(true);
    // The big file is not read whole: it is over a quarter of the budget.
    expect(linesOf(fragments, "src/table.ts").size).toBeGreaterThan(0);
    expect(linesOf(fragments, "src/table.ts").size).toBeLessThan(TABLE_ENTRIES * 4);
  });
});
