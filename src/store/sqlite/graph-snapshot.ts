import type Database from "better-sqlite3";
import type {
  GraphDefinition,
  GraphFileRecord,
  GraphImport,
  GraphReference,
  ImportTarget,
  ReferenceKind,
  SymbolKind,
} from "../../core/graph.js";
import { GRAPH_GENERATION_KEY } from "./document-writes.js";

/** The counter every document write raises, "0" before the first. */
export function graphGeneration(db: Database.Database): string {
  const row = db.prepare("SELECT value FROM ctx_meta WHERE key = ?").get(GRAPH_GENERATION_KEY) as
    | { value: string | number }
    | undefined;
  return String(row?.value ?? 0);
}

interface MutableFile {
  resourceId: string;
  path: string;
  language: string;
  definitions: GraphDefinition[];
  references: GraphReference[];
  imports: GraphImport[];
}

/**
 * Every document's graph rows, read in one pass over each table (in one read
 * transaction); references to names that no file defines are left out.
 */
export function loadGraph(db: Database.Database): {
  generation: string;
  files: GraphFileRecord[];
} {
  return db.transaction(() => {
    const files = new Map<number, MutableFile>();
    const documents = db
      .prepare(
        "SELECT id, resource_id AS resourceId, path, language FROM documents ORDER BY path, resource_id",
      )
      .all() as { id: number; resourceId: string; path: string; language: string }[];
    for (const { id, ...document } of documents) {
      files.set(id, { ...document, definitions: [], references: [], imports: [] });
    }
    const definitions = db
      .prepare(
        `SELECT document_id AS documentId, name, kind, start_line AS startLine, end_line AS endLine,
           parent, signature FROM graph_definitions ORDER BY document_id, start_line, id`,
      )
      .all() as ({ documentId: number; kind: SymbolKind } & Omit<GraphDefinition, "kind">)[];
    for (const { documentId, ...definition } of definitions) {
      files.get(documentId)?.definitions.push(definition);
    }
    const references = db
      .prepare(
        `SELECT document_id, name, kind, lines FROM graph_references
         WHERE name IN (SELECT name FROM graph_definitions)`,
      )
      .raw()
      .all() as [number, string, ReferenceKind, string][];
    for (const [documentId, name, kind, lines] of references) {
      files.get(documentId)?.references.push({ name, kind, lines: lines.split(",").map(Number) });
    }
    const imports = db
      .prepare(
        `SELECT document_id AS documentId, specifier, line, names, targets, reexport
         FROM graph_imports ORDER BY document_id, line, rowid`,
      )
      .all() as {
      documentId: number;
      specifier: string;
      line: number;
      names: string;
      targets: string;
      reexport: number;
    }[];
    for (const row of imports) {
      files.get(row.documentId)?.imports.push({
        specifier: row.specifier,
        line: row.line,
        names: row.names === "" ? [] : row.names.split(","),
        targets: JSON.parse(row.targets) as ImportTarget[],
        reexport: row.reexport === 1,
      });
    }
    return { generation: graphGeneration(db), files: [...files.values()] };
  })();
}
