import type { ChunkKind, StoredChunk } from "../core/types.js";

/** A chunk row joined with its document, as both stores select it (CHUNK_COLUMNS reads alike in either SQL). */
export interface ChunkRow {
  id: number;
  document_id: number;
  resource_id: string;
  path: string;
  language: string;
  start_line: number;
  end_line: number;
  kind: string;
  symbol: string;
  parent_id: number | null;
  parent_symbol: string | null;
  content: string;
  header: string;
  defines: string;
  context: string | null;
  context_status: string | null;
  hash: string;
  tokens: number;
}

export const CHUNK_COLUMNS = `c.id, c.document_id, d.resource_id, d.path, d.language, c.start_line,
  c.end_line, c.kind, c.symbol, c.parent_id,
  (SELECT p.symbol FROM chunks p WHERE p.id = c.parent_id) AS parent_symbol,
  c.content, c.header, c.defines, c.context, c.context_status, c.hash, c.tokens`;

export function toStoredChunk(row: ChunkRow): StoredChunk {
  return {
    id: row.id,
    documentId: row.document_id,
    resourceId: row.resource_id,
    path: row.path,
    language: row.language,
    startLine: row.start_line,
    endLine: row.end_line,
    kind: row.kind as ChunkKind,
    symbol: row.symbol,
    parentId: row.parent_id,
    parentSymbol: row.parent_symbol ?? "",
    content: row.content,
    header: row.header,
    defines: row.defines.length > 0 ? row.defines.split(" ") : [],
    context: row.context,
    contextStatus: row.context_status,
    hash: row.hash,
    tokens: row.tokens,
  };
}
