import type {
  GraphBackend,
  GraphDefinition,
  GraphFileKey,
  GraphFileRecord,
  GraphImport,
  GraphReference,
  ImportTarget,
  KnownGraphFiles,
} from "../../core/graph.js";
import { graphFileKey } from "../../core/graph.js";
import { explainPgError } from "./connection-errors.js";
import { type PgSession, type Queryable, rowsOf } from "./pg-session.js";
import { storedReference } from "./reference-kinds.js";

type DocumentRow = { id: number } & GraphFileKey & { language: string };

/** A file's record while its rows are read in. */
interface FileBeingRead extends GraphFileRecord {
  definitions: GraphDefinition[];
  references: GraphReference[];
  imports: GraphImport[];
}

interface ImportRow {
  documentId: number;
  specifier: string;
  line: number;
  names: string;
  targets: string;
  reexport: boolean;
}

/** The project's generation counter, "0" before its first write. */
async function generationOf(client: Queryable, projectId: number): Promise<string> {
  const [row] = await rowsOf<{ generation: number }>(
    client,
    "SELECT graph_generation AS generation FROM ctx_projects WHERE id = $1",
    [projectId],
  );
  return String(row?.generation ?? 0);
}

/** Reads in one snapshot, so the rows and the generation belong together. */
async function inSnapshot<T>(
  session: PgSession,
  read: (client: Queryable) => Promise<T>,
): Promise<T> {
  return session.transaction(async (client) => {
    await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    return read(client);
  });
}

// Paths order as SQLite compares text (bytes), whatever the database's collation.
const DOCUMENT_ORDER = `ORDER BY path COLLATE "C", resource_id COLLATE "C"`;

/** The documents' rows, in their order, read table by table. */
async function recordsOf(
  client: Queryable,
  projectId: number,
  documents: readonly DocumentRow[],
): Promise<GraphFileRecord[]> {
  if (documents.length === 0) return [];
  const ids = documents.map((document) => document.id);
  const files = new Map<number, FileBeingRead>();
  for (const { id, resourceId, path, language } of documents) {
    files.set(id, { resourceId, path, language, definitions: [], references: [], imports: [] });
  }
  const definitions = await rowsOf<GraphDefinition & { documentId: number }>(
    client,
    `SELECT document_id AS "documentId", name, kind, start_line AS "startLine", end_line AS "endLine",
       parent, signature FROM graph_definitions
     WHERE project_id = $1 AND document_id = ANY($2::bigint[]) ORDER BY document_id, start_line, id`,
    [projectId, ids],
  );
  for (const { documentId, ...definition } of definitions) {
    files.get(documentId)?.definitions.push(definition);
  }
  const references = await rowsOf<{
    documentId: number;
    name: string;
    kind: string;
    lines: string;
  }>(
    client,
    `SELECT r.document_id AS "documentId", r.name, r.kind, r.lines FROM graph_references r
     WHERE r.project_id = $1 AND r.document_id = ANY($2::bigint[])
       AND EXISTS (SELECT 1 FROM graph_definitions g WHERE g.project_id = $1 AND g.name = r.name)
     ORDER BY r.document_id, r.id`,
    [projectId, ids],
  );
  for (const { documentId, name, kind, lines } of references) {
    files
      .get(documentId)
      ?.references.push(storedReference(name, kind, lines.split(",").map(Number)));
  }
  const imports = await rowsOf<ImportRow>(
    client,
    `SELECT document_id AS "documentId", specifier, line, names, targets, reexport FROM graph_imports
     WHERE project_id = $1 AND document_id = ANY($2::bigint[]) ORDER BY document_id, line, id`,
    [projectId, ids],
  );
  for (const row of imports) files.get(row.documentId)?.imports.push(toImport(row));
  return documents.map((document) => files.get(document.id) as GraphFileRecord);
}

function toImport(row: ImportRow): GraphImport {
  return {
    specifier: row.specifier,
    line: row.line,
    names: row.names === "" ? [] : row.names.split(","),
    targets: JSON.parse(row.targets) as ImportTarget[],
    reexport: row.reexport,
  };
}

/** The code graph's whole-file reads over one connection: what a graph build loads. */
export function pgGraphSnapshots(
  session: PgSession,
): Pick<GraphBackend, "graphGeneration" | "loadGraph" | "loadGraphSince" | "loadGraphReferencing"> {
  return {
    // Straight on the pool, outside a session call: its failure is explained here.
    async graphGeneration() {
      try {
        return await generationOf(session.pool, session.projectId);
      } catch (error) {
        throw explainPgError(session.location, error);
      }
    },
    /** Every document's graph rows (references to names no file defines left out), with the generation. */
    async loadGraph(
      known?: KnownGraphFiles,
    ): Promise<{ generation: string; files: GraphFileRecord[] }> {
      const { projectId } = session;
      return inSnapshot(session, async (client) => {
        const documents = await rowsOf<DocumentRow & { hash: string }>(
          client,
          `SELECT id, resource_id AS "resourceId", path, language, hash FROM documents
       WHERE project_id = $1 ${DOCUMENT_ORDER}`,
          [projectId],
        );
        const records = new Map<number, GraphFileRecord>();
        const unread: DocumentRow[] = [];
        for (const { hash, ...document } of documents) {
          const hit = known?.get(graphFileKey(document));
          if (hit && hit.hash === hash) records.set(document.id, hit.record);
          else unread.push(document);
        }
        const read = await recordsOf(client, projectId, unread);
        unread.forEach((document, index) => {
          const record = read[index];
          if (record) records.set(document.id, record);
        });
        const files = documents.flatMap(({ id }) => records.get(id) ?? []);
        return { generation: await generationOf(client, projectId), files };
      });
    },
    /** Every document's key, with the rows of those written after `since` (null past `limit`). */
    async loadGraphSince(
      since: string,
      limit: number,
    ): Promise<{ generation: string; files: GraphFileKey[]; written: GraphFileRecord[] | null }> {
      const { projectId } = session;
      return inSnapshot(session, async (client) => {
        const documents = await rowsOf<DocumentRow & { written: boolean }>(
          client,
          `SELECT id, resource_id AS "resourceId", path, language, graph_generation > $2 AS written
       FROM documents WHERE project_id = $1 ${DOCUMENT_ORDER}`,
          [projectId, Number(since)],
        );
        const changed = documents.filter((document) => document.written);
        const written =
          changed.length > limit
            ? null
            : await recordsOf(
                client,
                projectId,
                changed.map(({ written: _written, ...document }) => document),
              );
        const files = documents.map(({ resourceId, path }) => ({ resourceId, path }));
        return { generation: await generationOf(client, projectId), files, written };
      });
    },
    /** The rows of every document with a reference to one of `names`, in path order. */
    async loadGraphReferencing(names: readonly string[]): Promise<GraphFileRecord[]> {
      const { projectId } = session;
      return inSnapshot(session, async (client) => {
        const documents = await rowsOf<DocumentRow>(
          client,
          `SELECT id, resource_id AS "resourceId", path, language FROM documents
       WHERE project_id = $1 AND id IN (SELECT document_id FROM graph_references
                                        WHERE project_id = $1 AND name = ANY($2::text[]))
       ${DOCUMENT_ORDER}`,
          [projectId, names],
        );
        return recordsOf(client, projectId, documents);
      });
    },
  };
}
