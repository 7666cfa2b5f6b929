import type Database from "better-sqlite3";
import type { DocumentStore } from "../../core/store.js";
import type { DocumentState } from "../../core/types.js";
import type { ChunkChecks } from "../chunk-checks.js";
import { CHUNK_COLUMNS, type ChunkRow, toStoredChunk } from "../chunk-rows.js";
import type { DeferredGraphIndexes } from "./deferred-graph-indexes.js";
import type { DocumentWrites } from "./document-writes.js";
import { sqliteResources } from "./resource-queries.js";
import { cachedStatement } from "./statement-cache.js";
import type { TextCompaction } from "./text-compaction.js";
import { chunkRows, type KeywordSearch } from "./text-search.js";

/** The parts of one connection the documents and their full text are kept with. */
export interface SqliteDocumentParts {
  readonly writes: DocumentWrites;
  readonly compaction: TextCompaction;
  readonly graphIndexes: DeferredGraphIndexes;
  readonly keywordSearch: KeywordSearch;
  /** Leaves chunks whose text no longer matches its checksum out of what is read. */
  readonly checks: ChunkChecks;
}

/** Resources, documents, chunks and the FTS5 index over one connection. */
export function sqliteDocuments(
  db: Database.Database,
  { writes, compaction, graphIndexes, keywordSearch, checks }: SqliteDocumentParts,
): DocumentStore {
  return {
    ...sqliteResources(db, () => graphIndexes.restore()),
    removeResource: async (resourceId) => writes.removeResource(resourceId),
    async listDocuments(resourceId) {
      return cachedStatement(
        db,
        "SELECT id, path, size, mtime_ms AS mtimeMs, hash FROM documents WHERE resource_id = ?",
      ).all(resourceId) as DocumentState[];
    },
    writeDocuments: async (documents) => writes.write(documents),
    touchDocument: async (documentId, size, mtimeMs) => writes.touch(documentId, size, mtimeMs),
    removeDocuments: async (documentIds) => writes.remove(documentIds),
    compactionDue: async () => compaction.isDue(),
    compact: (searchTexts) => compaction.compact(searchTexts),
    searchText: async (query) => checks.intactHits(keywordSearch.search(query)),
    getChunks: async (chunkIds) => checks.intact(chunkRows(db, chunkIds).map(toStoredChunk)),
    async getDocumentChunks(resourceId, path, limit = -1, lines) {
      const from = lines?.from ?? null;
      const to = lines?.to ?? null;
      const rows = cachedStatement(
        db,
        `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document_id
         WHERE d.resource_id = ? AND d.path = ?
           AND (? IS NULL OR c.end_line >= ?) AND (? IS NULL OR c.start_line <= ?)
         ORDER BY c.ordinal LIMIT ?`,
      ).all(resourceId, path, from, from, to, to, limit) as ChunkRow[];
      return checks.intact(rows.map(toStoredChunk));
    },
  };
}
