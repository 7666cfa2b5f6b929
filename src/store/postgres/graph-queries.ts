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
import { pgGraphSnapshots } from "./graph-snapshot.js";
import type { PgSession } from "./pg-session.js";
import { MEMBER_CALL, shownKind } from "./reference-kinds.js";
import { escapeLike } from "./rows.js";

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

const DEFINITION_COLUMNS = `g.name, g.kind, g.start_line AS "startLine", g.end_line AS "endLine", g.parent,
  g.signature, g.doc, d.path, d.resource_id AS "resourceId"`;

/** The file defining a name and the files that pass it on (`export … from`, transitively). */
async function providersOf(session: PgSession, name: string, path: string): Promise<string[]> {
  const reexports = (
    await session.rows<{ path: string; names: string; targets: string }>(
      `SELECT d.path, i.names, i.targets FROM graph_imports i JOIN documents d ON d.id = i.document_id
       WHERE i.project_id = $1 AND i.reexport`,
      [session.projectId],
    )
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
async function importersOf(
  session: PgSession,
  paths: readonly string[],
  documentIds: readonly number[],
): Promise<Set<number>> {
  const importing = new Set<number>();
  if (documentIds.length === 0) return importing;
  const rows = await session.rows<{ documentId: number; targets: string }>(
    `SELECT document_id AS "documentId", targets FROM graph_imports
     WHERE project_id = $1 AND document_id = ANY($2::bigint[])`,
    [session.projectId, [...new Set(documentIds)]],
  );
  for (const { documentId, targets } of rows) {
    if (importing.has(documentId)) continue;
    const parsed = JSON.parse(targets) as ImportTarget[];
    if (paths.some((path) => parsed.some((target) => targetMatches(target, path)))) {
      importing.add(documentId);
    }
  }
  return importing;
}

/** Row counts, and rows whose document is gone (0 unless the index is damaged). */
export async function graphStats(session: PgSession): Promise<StoreStats["graph"]> {
  const row = await session.row<StoreStats["graph"]>(
    `SELECT (SELECT count(*) FROM graph_definitions WHERE project_id = $1) AS definitions,
            (SELECT count(*) FROM graph_references WHERE project_id = $1) AS "references",
            (SELECT count(*) FROM graph_imports WHERE project_id = $1) AS imports,
            0 AS orphans`,
    [session.projectId],
  );
  return row ?? { definitions: 0, references: 0, imports: 0, orphans: 0 };
}

/** The code graph over one connection: symbol and reference lookups, and whole-file reads. */
export function pgGraph(session: PgSession): GraphBackend {
  return {
    ...pgGraphSnapshots(session),
    /** Definitions by name, as the SQLite store finds them: exact, else without case; `name*` a prefix. */
    async findSymbols(query: SymbolQuery): Promise<SymbolRecord[]> {
      const filters: string[] = [];
      const values: (string | number)[] = [session.projectId];
      const add = (value: string | number) => {
        values.push(value);
        return `$${values.length}`;
      };
      if (query.kind) filters.push(`g.kind = ${add(query.kind)}`);
      if (query.path) {
        const folder = query.path.endsWith("/") ? query.path : `${query.path}/`;
        filters.push(
          `(d.path = ${add(query.path)} OR d.path LIKE ${add(`${escapeLike(folder)}%`)})`,
        );
      }
      const run = (match: string, name: string): Promise<DefinitionRow[]> => {
        const params = [...values, name, query.limit];
        const sql = `SELECT ${DEFINITION_COLUMNS} FROM graph_definitions g JOIN documents d ON d.id = g.document_id
       WHERE g.project_id = $1 AND ${[match.replace("?", `$${values.length + 1}`), ...filters].join(" AND ")}
       ORDER BY d.path COLLATE "C", g.start_line LIMIT $${values.length + 2}`;
        return session.rows<DefinitionRow>(sql, params);
      };
      if (query.name.endsWith("*")) {
        return run("lower(g.name) LIKE ?", `${escapeLike(query.name.slice(0, -1).toLowerCase())}%`);
      }
      const exact = await run("g.name = ?", query.name);
      return exact.length > 0 ? exact : run("lower(g.name) = ?", query.name.toLowerCase());
    },
    /** Uses of a name, one per line; with `definitionPath`, those that resolve to that file's definition. */
    async findReferences(name: string, definitionPath?: string): Promise<ReferenceRecord[]> {
      const { projectId } = session;
      let rows = await session.rows<{
        documentId: number;
        path: string;
        language: string;
        kind: string;
        lines: string;
      }>(
        `SELECT d.id AS "documentId", d.path, d.language, r.kind, r.lines FROM graph_references r
     JOIN documents d ON d.id = r.document_id WHERE r.project_id = $1 AND r.name = $2`,
        [projectId, name],
      );
      if (definitionPath !== undefined) {
        const definitions = await session.rows<{ path: string; parent: string }>(
          `SELECT DISTINCT d.path, g.parent FROM graph_definitions g JOIN documents d ON d.id = g.document_id
           WHERE g.project_id = $1 AND g.name = $2`,
          [projectId, name],
        );
        const definedIn = new Set(definitions.map((row) => row.path));
        if (!definedIn.has(definitionPath)) return [];
        const unique = definedIn.size === 1;
        const method = soleMethodPath(definitions);
        const importing = await importersOf(
          session,
          await providersOf(session, name, definitionPath),
          rows.filter((row) => row.path !== definitionPath).map((row) => row.documentId),
        );
        rows = rows.filter((row) =>
          method !== null && row.kind === MEMBER_CALL
            ? method === definitionPath
            : row.path === definitionPath ||
              importing.has(row.documentId) ||
              (unique && !IMPORT_SCOPED_LANGUAGES.has(row.language)),
        );
      }
      const records: ReferenceRecord[] = [];
      for (const row of rows) {
        for (const line of row.lines.split(",")) {
          records.push({ path: row.path, line: Number(line), kind: shownKind(row.kind) });
        }
      }
      return orderedReferences(records);
    },
  };
}
