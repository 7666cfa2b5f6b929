import type { SymbolRecord } from "../core/graph.js";
import { StoredLines } from "../core/stored-lines.js";
import type { TextBackend } from "../core/text-backend.js";
import type { StoredChunk } from "../core/types.js";
import { definitionDoc } from "../graph/definition-docs.js";

/**
 * The definitions with their docs read from their files' stored lines (the
 * comment above each, else the docstring indexing kept): each file is read
 * once, however many of its definitions were found.
 */
export async function withDocs(
  records: readonly SymbolRecord[],
  text: Pick<TextBackend, "getDocumentChunks">,
): Promise<SymbolRecord[]> {
  const files = new Map<string, Promise<FileLines>>();
  const linesOf = (record: SymbolRecord) => {
    const key = `${record.resourceId}\0${record.path}`;
    let lines = files.get(key);
    if (!lines) {
      lines = text.getDocumentChunks(record.resourceId, record.path).then(fileLines);
      files.set(key, lines);
    }
    return lines;
  };
  return Promise.all(
    records.map(async (record) => {
      const { lines, language } = await linesOf(record);
      const doc = definitionDoc(
        (line) => lines.text(line, line),
        language,
        record.startLine,
        record.doc ?? "",
      );
      return doc === (record.doc ?? "") ? record : { ...record, doc };
    }),
  );
}

interface FileLines {
  readonly lines: StoredLines;
  readonly language: string;
}

function fileLines(chunks: readonly StoredChunk[]): FileLines {
  return { lines: new StoredLines(chunks), language: chunks[0]?.language ?? "" };
}
