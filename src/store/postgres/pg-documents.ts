import type { DocumentStore } from "../../core/store.js";
import type { FieldWeights } from "../../core/text-backend.js";
import type { DocumentState } from "../../core/types.js";
import type { ChunkChecks } from "../chunk-checks.js";
import { CHUNK_COLUMNS, type ChunkRow, toStoredChunk } from "../chunk-rows.js";
import { bumpGeneration, deleteDocuments, writeDocuments } from "./document-writes.js";
import type { PgSession } from "./pg-session.js";
import { pgResources } from "./project-records.js";
import { VACUUM_AFTER_TERM_ROWS, vacuumTerms } from "./schema-size.js";
import { chunkRows, searchChunks } from "./text-search.js";

/**
 * The project's resources, documents, chunks and its inverted index over one
 * connection, ranked with `fieldWeights` as the SQLite store ranks; `checks`
 * leaves chunks whose text no longer matches its checksum out of what is read.
 */
export function pgDocuments(
  session: PgSession,
  { fieldWeights, checks }: { readonly fieldWeights: FieldWeights; readonly checks: ChunkChecks },
): DocumentStore {
  const { projectId } = session;
  /** Full-text rows written since the last vacuum of them. */
  let termRowsWritten = 0;
  return {
    ...pgResources(session),
    removeResource(resourceId) {
      return session.transaction(async (client) => {
        await bumpGeneration(client, projectId);
        const { rows } = await client.query<{ id: number }>(
          "SELECT id FROM documents WHERE project_id = $1 AND resource_id = $2",
          [projectId, resourceId],
        );
        await deleteDocuments(
          client,
          projectId,
          rows.map((row) => row.id),
        );
        await client.query("DELETE FROM resources WHERE project_id = $1 AND id = $2", [
          projectId,
          resourceId,
        ]);
        return rows.length;
      });
    },
    listDocuments(resourceId) {
      return session.rows<DocumentState>(
        `SELECT id, path, size, mtime_ms AS "mtimeMs", hash FROM documents
         WHERE project_id = $1 AND resource_id = $2`,
        [projectId, resourceId],
      );
    },
    async writeDocuments(documents) {
      termRowsWritten += await writeDocuments(session, documents);
    },
    async touchDocument(documentId, size, mtimeMs) {
      await session.rows(
        "UPDATE documents SET size = $1, mtime_ms = $2 WHERE project_id = $3 AND id = $4",
        [size, Math.trunc(mtimeMs), projectId, documentId],
      );
    },
    async removeDocuments(documentIds) {
      if (documentIds.length === 0) return;
      await session.transaction(async (client) => {
        await bumpGeneration(client, projectId);
        await deleteDocuments(client, projectId, documentIds);
      });
    },
    /** The inverted index is exact after every write; only a run that wrote many rows vacuums them (compact). */
    compactionDue: async () => termRowsWritten >= VACUUM_AFTER_TERM_ROWS,
    /**
     * After a run that wrote many full-text rows, marks their pages all-visible
     * (VACUUM) so searches read postings from chunk_terms' key alone; until
     * autovacuum gets there, each posting costs a heap page. Small runs (a watch
     * batch) leave it to autovacuum.
     */
    async compact() {
      if (termRowsWritten < VACUUM_AFTER_TERM_ROWS) return;
      termRowsWritten = 0;
      await vacuumTerms(session);
    },
    searchText: async (query) =>
      checks.intactHits(await searchChunks(session, fieldWeights, query)),
    getChunks: async (chunkIds) =>
      checks.intact((await chunkRows(session, chunkIds)).map(toStoredChunk)),
    async getDocumentChunks(resourceId, path, limit, lines) {
      const rows = await session.rows<ChunkRow>(
        `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id
         WHERE d.project_id = $1 AND d.resource_id = $2 AND d.path = $3
           AND ($5::int IS NULL OR c.end_line >= $5) AND ($6::int IS NULL OR c.start_line <= $6)
         ORDER BY c.ordinal LIMIT $4`,
        [projectId, resourceId, path, limit ?? null, lines?.from ?? null, lines?.to ?? null],
      );
      return checks.intact(rows.map(toStoredChunk));
    },
  };
}
