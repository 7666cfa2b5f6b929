import type { DocumentToStore } from "../../src/core/store.js";
import { withSearchText } from "../../src/ingest/search-text.js";

/** A document of one chunk holding `text`, with structural search text, as an index run writes it. */
export function document(resourceId: string, path: string, text: string): DocumentToStore {
  const lines = text.split("\n");
  return {
    resourceId,
    path,
    language: "typescript",
    size: text.length,
    mtimeMs: 1000,
    hash: `hash-of-${text.length}`,
    chunks: withSearchText({ path, language: "typescript", text, contexts: "structural" }, [
      {
        startLine: 1,
        endLine: lines.length,
        kind: "function",
        symbol: "",
        parent: null,
        content: text,
        header: "",
        defines: [],
        tokens: 10,
      },
    ]),
  };
}
