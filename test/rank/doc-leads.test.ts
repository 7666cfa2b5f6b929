import { describe, expect, it } from "vitest";
import { opensWithTaskWord } from "../../src/rank/doc-leads.js";
import { keywordSignals } from "../../src/rank/keyword-signals.js";
import { taskStems } from "../../src/text/word-stems.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const TASK = "how does the index decide which files changed";
const leads = (text: string, task = TASK) => opensWithTaskWord(text, taskStems(task));

describe("a comment that opens with a word of the task", () => {
  it("reads the first word of each comment block, in every comment style", () => {
    expect(leads("/**\n * Decides which of a root's files changed.\n */\nfunction f() {}")).toBe(
      true,
    );
    expect(leads("  // Decided per file, by size and mtime.\n  const a = 1;")).toBe(true);
    expect(leads('def f():\n    """Decide what to read."""\n', TASK)).toBe(true);
    expect(leads("# Decides, in Python or Ruby.\ndef f(): pass")).toBe(true);
    // A later block opens with it too.
    expect(leads("// Unrelated.\nx();\n\n// Files that changed since the last run.\ny();")).toBe(
      true,
    );
  });

  it("takes only the word that opens a block, not one further on", () => {
    expect(leads("/** A file worth reading, with what indexing decides. */\ntype F = {}")).toBe(
      false,
    );
    expect(leads("// What the watcher sees:\n// decides nothing.\nclass W {}")).toBe(false);
    // Markers are not words, and a comment whose text is not a word opens with none.
    expect(leads("/**\n * @param files the files\n */\nfunction g(files) {}")).toBe(false);
  });

  it("ignores what is not a comment, function words and shebangs", () => {
    expect(leads("const decide = files.filter(changed);")).toBe(false);
    expect(leads("#!/usr/bin/env decide\n#[derive(Files)]\nstruct S;")).toBe(false);
    // "which" and "how" are function words: a comment opening with one is no match.
    expect(leads("// Which one wins is up to the caller.", "which one wins")).toBe(false);
    expect(leads("// Decides.", "")).toBe(false);
  });

  it("is a keyword hit's signal, set only on the hits that have it", () => {
    const chunk = (path: string, content: string) =>
      ({ resourceId: "r", path, content }) as Parameters<typeof keywordSignals>[0][0]["chunk"];
    const signals = keywordSignals(
      [
        { chunk: chunk("a.ts", "// Decides which files changed.\nf();"), score: 2 },
        { chunk: chunk("b.ts", "// A file.\ng();"), score: 1 },
      ],
      taskStems(TASK),
    );
    expect(signals.map((s) => s.docLead)).toEqual([1, undefined]);
  });

  // Without the signal the type ranks first (its words match the task better; its name is
  // not one the task spells out, which nameWords would lift); with it,
  // the function whose doc opens with the task's verb.
  it("puts the function that does what the task asks before a type of the same words", async () => {
    const root = tempDir();
    writeFiles(root, {
      "src/candidate.ts":
        "/** What the index keeps of each file to decide whether the file changed: its size and mtime. */\nexport interface IndexedEntry { path: string; size: number; mtime: number }\n",
      "src/refresh.ts":
        "/** Decides which files changed since the last run, and reads only those. */\nexport function refresh(files: IndexedEntry[], known: Map<string, IndexedEntry>) {\n  return files.filter((file) => known.get(file.path)?.size !== file.size);\n}\n",
    });
    const engine = await indexedEngine(root);
    const result = await engine.query({ task: TASK, budget: 4000, format: "json", explain: true });
    const { fragments } = JSON.parse(result.output) as {
      fragments: { path: string; features: Record<string, number> | null }[];
    };
    const refresh = fragments.find((fragment) => fragment.path === "src/refresh.ts");
    const candidate = fragments.find((fragment) => fragment.path === "src/candidate.ts");
    expect(refresh?.features?.docLead).toBe(1);
    expect(candidate?.features?.docLead).toBe(0);
    expect(fragments[0]?.path).toBe("src/refresh.ts");
  });
});
