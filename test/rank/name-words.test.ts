import { describe, expect, it } from "vitest";
import { namedByTaskWords } from "../../src/rank/name-words.js";
import { taskStems } from "../../src/text/word-stems.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const TASK = "how does incremental indexing decide which files changed";
const named = (symbol: string, task = TASK) => namedByTaskWords(symbol, taskStems(task));

describe("a symbol whose every word the task uses", () => {
  it("matches compound names by their words' stems, in every naming style", () => {
    expect(named("indexFiles")).toBe(true);
    expect(named("index_files")).toBe(true);
    expect(named("IndexedFiles")).toBe(true);
    expect(named("Engine.changedFiles")).toBe(true);
    expect(named("split_arg_string", "optimize split_arg_string: split the arg string once")).toBe(
      true,
    );
  });

  it("leaves out names with a word the task lacks, single words and non-identifiers", () => {
    expect(named("indexResources")).toBe(false);
    expect(named("FileCandidate")).toBe(false);
    // One word is symbolNamed's, matched as written: by stem it would name too much.
    expect(named("change")).toBe(false);
    expect(named("getFiles")).toBe(false);
    expect(named("Files > Index")).toBe(false);
    expect(named("")).toBe(false);
    expect(named("indexFiles", "")).toBe(false);
  });

  // Without the feature the type ranks first (its comment repeats the task's words); with
  // it, the function whose name the task spells out.
  it("puts the function the task spells out before a type of the same words", async () => {
    const root = tempDir();
    writeFiles(root, {
      "src/stale-entry.ts":
        "/** A stale document entry: a document whose file was removed, kept in the documents table until swept. */\nexport interface StaleEntry { path: string; removedAt: number }\n",
      "src/sweep.ts":
        "export function removeStaleDocuments(store: Store, seen: Set<string>): number {\n  let count = 0;\n  for (const path of store.paths()) if (!seen.has(path)) { store.delete(path); count++; }\n  return count;\n}\n",
    });
    const engine = await indexedEngine(root);
    const result = await engine.query({
      task: "how are stale documents removed",
      budget: 4000,
      format: "json",
      explain: true,
    });
    const { fragments } = JSON.parse(result.output) as {
      fragments: { path: string; features: Record<string, number> | null }[];
    };
    const sweep = fragments.find((fragment) => fragment.path === "src/sweep.ts");
    expect(sweep?.features?.nameWords).toBe(1);
    expect(fragments[0]?.path).toBe("src/sweep.ts");
  });
});
