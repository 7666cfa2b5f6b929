import type Database from "better-sqlite3";
import type {
  GraphDefinition,
  GraphFileKey,
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
      .all() as ({ documentId: number } & ImportRow)[];
    for (const row of imports) files.get(row.documentId)?.imports.push(toImport(row));
    return { generation: graphGeneration(db), files: [...files.values()] };
  })();
}

type DocumentRow = { id: number } & GraphFileKey & { language: string };

/**
 * Every document's key in `loadGraph`'s order, with the rows of those written
 * after generation `since` (null when more than `limit` were), read together.
 */
export function graphFilesSince(
  db: Database.Database,
  since: string,
  limit: number,
): { generation: string; files: GraphFileKey[]; written: GraphFileRecord[] | null } {
  return db.transaction(() => {
    const documents = db
      .prepare(
        `SELECT id, resource_id AS resourceId, path, language, graph_generation > ? AS written
         FROM documents ORDER BY path, resource_id`,
      )
      .all(Number(since)) as (DocumentRow & { written: number })[];
    const changed = documents.filter((document) => document.written === 1);
    const written = changed.length > limit ? null : recordsOf(db, changed);
    const files = documents.map(({ resourceId, path }) => ({ resourceId, path }));
    return { generation: graphGeneration(db), files, written };
  })();
}

/** The rows of every document with a reference to one of `names`, in path order. */
export function graphFilesReferencing(
  db: Database.Database,
  names: readonly string[],
): GraphFileRecord[] {
  return db.transaction(() => {
    const documents = db
      .prepare(
        `SELECT id, resource_id AS resourceId, path, language FROM documents
         WHERE id IN (SELECT document_id FROM graph_references
                      WHERE name IN (SELECT value FROM json_each(?)))
         ORDER BY path, resource_id`,
      )
      .all(JSON.stringify(names)) as DocumentRow[];
    return recordsOf(db, documents);
  })();
}

/** Each document's rows, as `loadGraph` reads them, a few statements per document. */
function recordsOf(db: Database.Database, documents: readonly DocumentRow[]): GraphFileRecord[] {
  if (documents.length === 0) return [];
  const definitions = db.prepare(
    `SELECT name, kind, start_line AS startLine, end_line AS endLine, parent, signature
     FROM graph_definitions WHERE document_id = ? ORDER BY start_line, id`,
  );
  const references = db
    .prepare(
      `SELECT name, kind, lines FROM graph_references
       WHERE document_id = ? AND name IN (SELECT name FROM graph_definitions)`,
    )
    .raw();
  const imports = db.prepare(
    `SELECT specifier, line, names, targets, reexport FROM graph_imports
     WHERE document_id = ? ORDER BY line, rowid`,
  );
  return documents.map(({ id, resourceId, path, language }) => ({
    resourceId,
    path,
    language,
    definitions: definitions.all(id) as GraphDefinition[],
    references: (references.all(id) as [string, ReferenceKind, string][]).map(
      ([name, kind, lines]) => ({ name, kind, lines: lines.split(",").map(Number) }),
    ),
    imports: (imports.all(id) as ImportRow[]).map(toImport),
  }));
}

interface ImportRow {
  specifier: string;
  line: number;
  names: string;
  targets: string;
  reexport: number;
}

function toImport(row: ImportRow): GraphImport {
  return {
    specifier: row.specifier,
    line: row.line,
    names: row.names === "" ? [] : row.names.split(","),
    targets: JSON.parse(row.targets) as ImportTarget[],
    reexport: row.reexport === 1,
  };
}
