import type Database from "better-sqlite3";
import type {
  GraphBackend,
  ImportTarget,
  ReferenceRecord,
  SymbolKind,
  SymbolQuery,
  SymbolRecord,
} from "../../core/graph.js";
import { orderedReferences, soleMethodPath } from "../../core/graph.js";
import type { StoreStats } from "../../core/store.js";
import { targetMatches } from "../../languages/import-paths.js";
import { IMPORT_SCOPED_LANGUAGES } from "../../languages/registry.js";
import { sqliteGraphSnapshots } from "./graph-snapshot.js";
import { namesQuery, unpackReferences } from "./reference-lists.js";

interface DefinitionRow {
  name: string;
  kind: SymbolKind;
  startLine: number;
  endLine: number;
  parent: string;
  signature: string;
  doc: string;
  path: string;
  resourceId: string;
}

const DEFINITION_COLUMNS = `g.name, g.kind, g.start_line AS startLine, g.end_line AS endLine, g.parent,
  g.signature, g.doc, d.path, d.resource_id AS resourceId`;

/** `%`, `_` and `\` match themselves in a LIKE pattern built from a path. */
function likePrefix(path: string): string {
  return `${path.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The file defining a name and the files that pass it on (`export … from`,
 * also through other re-exporting files): importing any of them imports it.
 */
function providersOf(db: Database.Database, name: string, path: string): string[] {
  const reexports = (
    db
      .prepare(
        `SELECT d.path, i.names, i.targets FROM graph_imports i JOIN documents d ON d.id = i.document_id
         WHERE i.reexport = 1`,
      )
      .all() as { path: string; names: string; targets: string }[]
  ).filter((row) => row.names === "" || row.names.split(",").includes(name));
  const providers = new Set([path]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of reexports) {
      if (providers.has(row.path)) continue;
      const targets = JSON.parse(row.targets) as ImportTarget[];
      if ([...providers].some((provider) => targets.some((t) => targetMatches(t, provider)))) {
        providers.add(row.path);
        grew = true;
      }
    }
  }
  return [...providers];
}

/** Of the given documents, those with an import that names one of the files. */
function importersOf(
  db: Database.Database,
  paths: readonly string[],
  documentIds: readonly number[],
): Set<number> {
  const importing = new Set<number>();
  const select = db.prepare("SELECT targets FROM graph_imports WHERE document_id = ?");
  for (const documentId of new Set(documentIds)) {
    for (const { targets } of select.all(documentId) as { targets: string }[]) {
      const parsed = JSON.parse(targets) as ImportTarget[];
      if (paths.some((path) => parsed.some((target) => targetMatches(target, path)))) {
        importing.add(documentId);
        break;
      }
    }
  }
  return importing;
}

/** Row counts, and rows whose document is gone: a graph written apart from its chunks would leave some. */
export function graphStats(db: Database.Database): StoreStats["graph"] {
  const count = (table: string, where = "") =>
    (db.prepare(`SELECT count(*) AS n FROM ${table} g ${where}`).get() as { n: number }).n;
  const orphan = "WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = g.document_id)";
  const tables = ["graph_definitions", "graph_reference_lists", "graph_imports"];
  const references = db
    .prepare("SELECT coalesce(sum(count), 0) AS n FROM graph_reference_lists")
    .get() as { n: number };
  return {
    definitions: count("graph_definitions"),
    references: references.n,
    imports: count("graph_imports"),
    orphans: tables.reduce((sum, table) => sum + count(table, orphan), 0),
  };
}

/** The code graph over one connection: symbol and reference lookups, and whole-file reads. */
export function sqliteGraph(db: Database.Database): GraphBackend {
  return {
    ...sqliteGraphSnapshots(db),
    /**
     * Definitions by name: exact first, then without case when nothing matches
     * exactly; `name*` matches names starting with `name`, without case.
     */
    async findSymbols(query: SymbolQuery): Promise<SymbolRecord[]> {
      const filters: string[] = [];
      const values: (string | number)[] = [];
      if (query.kind) {
        filters.push("g.kind = ?");
        values.push(query.kind);
      }
      if (query.path) {
        filters.push("(d.path = ? OR d.path LIKE ? ESCAPE '\\')");
        values.push(
          query.path,
          likePrefix(query.path.endsWith("/") ? query.path : `${query.path}/`),
        );
      }
      const run = (match: string, name: string): DefinitionRow[] =>
        db
          .prepare(
            `SELECT ${DEFINITION_COLUMNS} FROM graph_definitions g JOIN documents d ON d.id = g.document_id
         WHERE ${[match, ...filters].join(" AND ")} ORDER BY d.path, g.start_line LIMIT ?`,
          )
          .all(name, ...values, query.limit) as DefinitionRow[];
      if (query.name.endsWith("*")) {
        return run(
          "lower(g.name) LIKE ? ESCAPE '\\'",
          likePrefix(query.name.slice(0, -1).toLowerCase()),
        );
      }
      const exact = run("g.name = ?", query.name);
      return exact.length > 0 ? exact : run("lower(g.name) = ?", query.name.toLowerCase());
    },
    /**
     * Uses of a name, one per line. With `definitionPath`, those that resolve to
     * the name's definition in that file: uses in the file itself, in files that
     * import it, and, where a language lets files use names they do not import
     * (Go packages, C headers, Ruby, PHP, C#, Java packages), uses anywhere when
     * no other file defines the name.
     */
    async findReferences(name: string, definitionPath?: string): Promise<ReferenceRecord[]> {
      let rows = (
        db
          .prepare(
            `SELECT d.id AS documentId, d.path, d.language, l.refs FROM graph_reference_names n
         JOIN graph_reference_lists l ON l.document_id = n.rowid
         JOIN documents d ON d.id = l.document_id WHERE graph_reference_names MATCH ?`,
          )
          .all(namesQuery([name])) as {
          documentId: number;
          path: string;
          language: string;
          refs: string;
        }[]
      ).flatMap(({ refs, ...document }) =>
        unpackReferences(refs, (used) => used === name).map((reference) => ({
          ...document,
          kind: reference.kind,
          member: reference.member === true,
          lines: reference.lines,
        })),
      );
      if (definitionPath !== undefined) {
        const definitions = db
          .prepare(
            `SELECT DISTINCT d.path, g.parent FROM graph_definitions g JOIN documents d ON d.id = g.document_id
             WHERE g.name = ?`,
          )
          .all(name) as { path: string; parent: string }[];
        const definedIn = new Set(definitions.map((row) => row.path));
        if (!definedIn.has(definitionPath)) return [];
        const unique = definedIn.size === 1;
        const method = soleMethodPath(definitions);
        const importing = importersOf(
          db,
          providersOf(db, name, definitionPath),
          rows.filter((row) => row.path !== definitionPath).map((row) => row.documentId),
        );
        rows = rows.filter((row) =>
          method !== null && row.member
            ? method === definitionPath
            : row.path === definitionPath ||
              importing.has(row.documentId) ||
              (unique && !IMPORT_SCOPED_LANGUAGES.has(row.language)),
        );
      }
      const records: ReferenceRecord[] = [];
      for (const row of rows) {
        for (const line of row.lines) records.push({ path: row.path, line, kind: row.kind });
      }
      return orderedReferences(records);
    },
  };
}
