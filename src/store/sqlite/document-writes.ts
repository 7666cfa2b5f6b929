import type Database from "better-sqlite3";
import type { DocumentToStore } from "../../core/store.js";
import type { DeferredGraphIndexes } from "./deferred-graph-indexes.js";
import { GraphWrites } from "./graph-writes.js";
import type { TextCompaction } from "./text-compaction.js";
import { inWriteTransaction } from "./write-transaction.js";

/** ctx_meta key of the counter every document write or removal raises (see graphGeneration). */
export const GRAPH_GENERATION_KEY = "graph_generation";

/**
 * Writes and removes documents with their chunks and full-text rows, each call
 * one transaction, with the statements prepared once per connection.
 */
export class DocumentWrites {
  private readonly findDocument: Database.Statement;
  private readonly documentChunkIds: Database.Statement;
  private readonly deleteFts: Database.Statement;
  private readonly deleteChunks: Database.Statement;
  private readonly deleteDocumentRow: Database.Statement;
  private readonly insertDocument: Database.Statement;
  private readonly insertChunk: Database.Statement;
  private readonly insertFts: Database.Statement;
  private readonly touchDocument: Database.Statement;
  private readonly graph: GraphWrites;
  private readonly bumpGeneration: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly compaction: TextCompaction,
    private readonly graphIndexes: DeferredGraphIndexes,
  ) {
    this.findDocument = db.prepare("SELECT id FROM documents WHERE resource_id = ? AND path = ?");
    this.documentChunkIds = db.prepare("SELECT id FROM chunks WHERE document_id = ?");
    this.deleteFts = db.prepare("DELETE FROM chunks_fts WHERE rowid = ?");
    this.deleteChunks = db.prepare("DELETE FROM chunks WHERE document_id = ?");
    this.deleteDocumentRow = db.prepare("DELETE FROM documents WHERE id = ?");
    this.insertDocument = db.prepare(
      `INSERT INTO documents (resource_id, path, language, size, mtime_ms, hash, graph_generation)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertChunk = db.prepare(
      `INSERT INTO chunks (document_id, ordinal, start_line, end_line, kind, symbol, parent_id,
         content, header, defines, context, tokens, hash, context_key, context_status, embed_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertFts = db.prepare(
      "INSERT INTO chunks_fts (rowid, path, symbols, context, body) VALUES (?, ?, ?, ?, ?)",
    );
    // Once: a checkout that only changes mtimes touches every file of the tree.
    this.touchDocument = db.prepare("UPDATE documents SET size = ?, mtime_ms = ? WHERE id = ?");
    this.graph = new GraphWrites(db);
    this.bumpGeneration = db.prepare(
      `INSERT INTO ctx_meta (key, value) VALUES ('${GRAPH_GENERATION_KEY}', '1')
       ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1
       RETURNING CAST(value AS INTEGER) AS generation`,
    );
  }

  write(documents: readonly DocumentToStore[]): void {
    if (documents.length === 0) return;
    // One transaction for many files, since FTS5 writes a segment per commit
    // (per-file commits made a third of the write time); old versions go first,
    // since an FTS5 delete flushes the inserts pending before it.
    inWriteTransaction(this.db, () => {
      if (documents.some((document) => document.graph)) this.graphIndexes.beforeWrite();
      for (const document of documents) {
        const old = this.findDocument.get(document.resourceId, document.path) as
          | { id: number }
          | undefined;
        if (old) this.deleteDocument(old.id);
      }
      const { generation } = this.bumpGeneration.get() as { generation: number };
      for (const document of documents) this.insertDocumentAndChunks(document, generation);
      const inserted = documents.reduce((sum, document) => sum + document.chunks.length, 0);
      this.compaction.recordWrite(0, inserted);
    });
  }

  touch(documentId: number, size: number, mtimeMs: number): void {
    inWriteTransaction(this.db, () =>
      this.touchDocument.run(size, Math.trunc(mtimeMs), documentId),
    );
  }

  remove(documentIds: readonly number[]): void {
    if (documentIds.length === 0) return;
    inWriteTransaction(this.db, () => {
      for (const id of documentIds) this.deleteDocument(id);
      this.bumpGeneration.get();
    });
  }

  /** Removes a resource with all its documents; returns how many documents went. */
  removeResource(resourceId: string): number {
    return inWriteTransaction(this.db, () => {
      const documents = this.db
        .prepare("SELECT id FROM documents WHERE resource_id = ?")
        .all(resourceId) as { id: number }[];
      for (const { id } of documents) this.deleteDocument(id);
      this.db.prepare("DELETE FROM resources WHERE id = ?").run(resourceId);
      this.bumpGeneration.get();
      return documents.length;
    });
  }

  private insertDocumentAndChunks(document: DocumentToStore, generation: number): void {
    const { lastInsertRowid } = this.insertDocument.run(
      document.resourceId,
      document.path,
      document.language,
      document.size,
      Math.trunc(document.mtimeMs),
      document.hash,
      generation,
    );
    const documentId = Number(lastInsertRowid);
    if (document.graph) this.graph.insert(documentId, document.graph);
    const ids: number[] = [];
    document.chunks.forEach((chunk, ordinal) => {
      const parentId = chunk.parent === null ? null : (ids[chunk.parent] ?? null);
      const result = this.insertChunk.run(
        documentId,
        ordinal,
        chunk.startLine,
        chunk.endLine,
        chunk.kind,
        chunk.symbol,
        parentId,
        chunk.content,
        chunk.header,
        chunk.defines.join(" "),
        chunk.context,
        chunk.tokens,
        chunk.hash,
        chunk.contextKey,
        chunk.contextStatus,
        chunk.embedHash,
      );
      const chunkId = Number(result.lastInsertRowid);
      ids.push(chunkId);
      const { search } = chunk;
      this.insertFts.run(chunkId, search.path, search.symbols, search.context, search.body);
    });
  }

  private deleteDocument(documentId: number): void {
    // Row by row: FTS5 answers `rowid IN (subquery)` by scanning the whole
    // index, which made every changed file cost a pass over all chunks.
    const chunkIds = this.documentChunkIds.all(documentId) as { id: number }[];
    for (const { id } of chunkIds) this.deleteFts.run(id);
    this.compaction.recordWrite(chunkIds.length);
    this.deleteChunks.run(documentId);
    this.deleteDocumentRow.run(documentId);
  }
}

/**
 * Makes the next index run read these documents' files again (their stored
 * text failed its checksum): a size and hash no file has. Skipped at once when
 * another process holds the write lock: a query must not wait for it.
 */
export function markForReading(db: Database.Database, documentIds: readonly number[]): void {
  const timeout = db.pragma("busy_timeout", { simple: true }) as number;
  db.pragma("busy_timeout = 0");
  try {
    inWriteTransaction(db, () => {
      const mark = db.prepare("UPDATE documents SET size = -1, hash = '' WHERE id = ?");
      for (const id of documentIds) mark.run(id);
    });
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
}
