import { describe, expect, it } from "vitest";
import type { SymbolRecord } from "../../src/core/graph.js";
import type { StoredChunk } from "../../src/core/types.js";
import { withDocs } from "../../src/engine/definition-doc-lookup.js";

function chunk(path: string, language: string, startLine: number, lines: string[]): StoredChunk {
  return {
    id: startLine,
    documentId: 1,
    resourceId: "r",
    path,
    language,
    startLine,
    endLine: startLine + lines.length - 1,
    kind: "code",
    symbol: "",
    parentId: null,
    parentSymbol: "",
    content: lines.join("\n"),
    header: "",
    defines: [],
    context: null,
    contextStatus: null,
    hash: String(startLine),
    tokens: 1,
  };
}

function definition(path: string, name: string, startLine: number, doc?: string): SymbolRecord {
  return {
    resourceId: "r",
    path,
    name,
    kind: "function",
    startLine,
    endLine: startLine + 1,
    parent: "",
    signature: `function ${name}()`,
    ...(doc === undefined ? {} : { doc }),
  };
}

describe("definition docs on look-up", () => {
  // The ledger's comment ends one chunk and its function starts the next; a blank line lies between chunks.
  const files: Record<string, StoredChunk[]> = {
    "src/ledger.ts": [
      chunk("src/ledger.ts", "typescript", 1, [
        "/**",
        " * Closes the account",
        " * once nothing is owed.",
        " */",
      ]),
      chunk("src/ledger.ts", "typescript", 5, ["export function close() {", "}"]),
      chunk("src/ledger.ts", "typescript", 8, ["function bare() {", "}"]),
    ],
    "ledger.py": [chunk("ledger.py", "python", 1, ["def owed():", '    """Money still owed."""'])],
  };
  const reads: string[] = [];
  const text = {
    getDocumentChunks: async (_resource: string, path: string) => {
      reads.push(path);
      return files[path] ?? [];
    },
  };

  it("read the comment above from the stored lines, else keep what indexing stored", async () => {
    const found = await withDocs(
      [
        definition("src/ledger.ts", "close", 5),
        definition("src/ledger.ts", "bare", 8),
        definition("ledger.py", "owed", 1, "Money still owed."),
        // An index written before comments were read on look-up holds them already: the same text comes back.
        definition("src/ledger.ts", "close", 5, "Closes the account once nothing is owed."),
      ],
      text,
    );
    expect(found.map((record) => record.doc ?? "")).toEqual([
      "Closes the account once nothing is owed.",
      "",
      "Money still owed.",
      "Closes the account once nothing is owed.",
    ]);
    expect(reads.sort()).toEqual(["ledger.py", "src/ledger.ts"]);
  });
});
