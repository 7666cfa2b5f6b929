import type Database from "better-sqlite3";
import type {
  GraphBackend,
  GraphDefinition,
  GraphFileKey,
  GraphFileRecord,
  GraphImport,
  GraphReference,
  ImportTarget,
  KnownGraphFiles,
  SymbolKind,
} from "../../core/graph.js";
import { graphFileKey } from "../../core/graph.js";
import { GRAPH_GENERATION_KEY } from "./document-writes.js";
import { namesQuery, unpackReferences } from "./reference-lists.js";
import { cachedStatement } from "./statement-cache.js";

/** The counter every document write raises, "0" before the first. */
function generationOf(db: Database.Database): string {
  const row = cachedStatement(db, "SELECT value FROM ctx_meta WHERE key = ?").get(
    GRAPH_GENERATION_KEY,
  ) as { value: string | number } | undefined;
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

/** Up to this share of documents unread, reading each one's rows beats scanning the tables. */
const MAX_SHARE_READ_BY_DOCUMENT = 0.2;

/** The rows of `documents` (most of the index), in one pass over each table. */
function allRecordsOf(db: Database.Database, documents: readonly DocumentRow[]): GraphFileRecord[] {
  const files = new Map<number, MutableFile>();
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
  const defined = new Set(
    db.prepare("SELECT DISTINCT name FROM graph_definitions").pluck().all() as string[],
  );
  const lists = db.prepare("SELECT document_id, refs FROM graph_reference_lists").raw().all() as [
    number,
    string,
  ][];
  for (const [documentId, refs] of lists) {
    const file = files.get(documentId);
    if (file) file.references = unpackReferences(refs, (name) => defined.has(name));
  }
  const imports = db
    .prepare(
      `SELECT document_id AS documentId, specifier, line, names, targets, reexport
       FROM graph_imports ORDER BY document_id, line, rowid`,
    )
    .all() as ({ documentId: number } & ImportRow)[];
  for (const row of imports) files.get(row.documentId)?.imports.push(toImport(row));
  return [...files.values()];
}

type DocumentRow = { id: number } & GraphFileKey & { language: string };

/** Each document's rows, as `loadGraph` reads them, a few statements per document. */
function recordsOf(db: Database.Database, documents: readonly DocumentRow[]): GraphFileRecord[] {
  if (documents.length === 0) return [];
  const definitions = db.prepare(
    `SELECT name, kind, start_line AS startLine, end_line AS endLine, parent, signature
     FROM graph_definitions WHERE document_id = ? ORDER BY start_line, id`,
  );
  const references = db
    .prepare("SELECT refs FROM graph_reference_lists WHERE document_id = ?")
    .pluck();
  const isDefined = db.prepare("SELECT 1 FROM graph_definitions WHERE name = ? LIMIT 1").pluck();
  const defined = new Map<string, boolean>();
  const definedName = (name: string): boolean => {
    let found = defined.get(name);
    if (found === undefined) {
      found = isDefined.get(name) !== undefined;
      defined.set(name, found);
    }
    return found;
  };
  const imports = db.prepare(
    `SELECT specifier, line, names, targets, reexport FROM graph_imports
     WHERE document_id = ? ORDER BY line, rowid`,
  );
  return documents.map(({ id, resourceId, path, language }) => ({
    resourceId,
    path,
    language,
    definitions: definitions.all(id) as GraphDefinition[],
    references: unpackReferences((references.get(id) as string | undefined) ?? "", definedName),
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

/** The code graph's whole-file reads over one connection: what a graph build loads. */
export function sqliteGraphSnapshots(
  db: Database.Database,
): Pick<GraphBackend, "graphGeneration" | "loadGraph" | "loadGraphSince" | "loadGraphReferencing"> {
  return {
    graphGeneration: async () => generationOf(db),
    /**
     * Every document's graph rows (in one read transaction), in one pass over each
     * table, or document by document when `known` holds most of them; references
     * to names that no file defines are left out of what is read.
     */
    async loadGraph(
      known?: KnownGraphFiles,
    ): Promise<{ generation: string; files: GraphFileRecord[] }> {
      return db.transaction(() => {
        const documents = db
          .prepare(
            "SELECT id, resource_id AS resourceId, path, language, hash FROM documents ORDER BY path, resource_id",
          )
          .all() as (DocumentRow & { hash: string })[];
        const records = new Map<number, GraphFileRecord>();
        const unread: DocumentRow[] = [];
        for (const { hash, ...document } of documents) {
          const hit = known?.get(graphFileKey(document));
          if (hit && hit.hash === hash) records.set(document.id, hit.record);
          else unread.push(document);
        }
        const read =
          unread.length <= MAX_SHARE_READ_BY_DOCUMENT * documents.length
            ? recordsOf(db, unread)
            : allRecordsOf(db, unread);
        unread.forEach((document, index) => {
          const record = read[index];
          if (record) records.set(document.id, record);
        });
        const files = documents.flatMap(({ id }) => records.get(id) ?? []);
        return { generation: generationOf(db), files };
      })();
    },
    /**
     * Every document's key in `loadGraph`'s order, with the rows of those written
     * after generation `since` (null when more than `limit` were), read together.
     */
    async loadGraphSince(
      since: string,
      limit: number,
    ): Promise<{ generation: string; files: GraphFileKey[]; written: GraphFileRecord[] | null }> {
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
        return { generation: generationOf(db), files, written };
      })();
    },
    /** The rows of every document with a reference to one of `names`, in path order. */
    async loadGraphReferencing(names: readonly string[]): Promise<GraphFileRecord[]> {
      return db.transaction(() => {
        if (names.length === 0) return [];
        const wanted = new Set(names);
        const documents = (
          db
            .prepare(
              `SELECT d.id, d.resource_id AS resourceId, d.path, d.language, l.refs
           FROM graph_reference_names n JOIN graph_reference_lists l ON l.document_id = n.rowid
           JOIN documents d ON d.id = l.document_id
           WHERE graph_reference_names MATCH ? ORDER BY d.path, d.resource_id`,
            )
            .all(namesQuery(names)) as (DocumentRow & { refs: string })[]
        )
          // The name table folds case: keep the documents using one of the names exactly.
          .filter(({ refs }) => unpackReferences(refs, (name) => wanted.has(name)).length > 0)
          .map(({ refs: _refs, ...document }) => document);
        return recordsOf(db, documents);
      })();
    },
  };
}
