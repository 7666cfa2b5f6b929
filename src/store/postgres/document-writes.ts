import type { FileGraph } from "../../core/graph.js";
import type { DocumentToStore, SearchText } from "../../core/store.js";
import { countFields } from "./bm25.js";
import { type PgSession, type Queryable, rowsOf } from "./pg-session.js";
import { storedKind } from "./reference-kinds.js";

/** The inverted-index rows of chunks, gathered as columns for one INSERT … unnest. */
class TermColumns {
  readonly terms: string[] = [];
  readonly chunkIds: number[] = [];
  readonly fields: [number[], number[], number[], number[]] = [[], [], [], []];
  readonly lengths: number[] = [];

  /** Adds one chunk's rows; returns its length in tokens. */
  add(chunkId: number, search: SearchText): number {
    const counts = countFields([search.path, search.symbols, search.context, search.body]);
    for (const [term, perField] of counts.terms) {
      this.terms.push(term);
      this.chunkIds.push(chunkId);
      pushRow(this.fields, perField);
      this.lengths.push(counts.length);
    }
    return counts.length;
  }

  async insert(client: Queryable, projectId: number): Promise<void> {
    if (this.terms.length === 0) return;
    await client.query(
      `INSERT INTO chunk_terms (project_id, term, chunk_id, tf_path, tf_symbols, tf_context, tf_body, text_length)
       SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::int[], $5::int[], $6::int[], $7::int[], $8::int[])`,
      [projectId, this.terms, this.chunkIds, ...this.fields, this.lengths],
    );
  }
}

/** Appends one row's values to column arrays, value i to column i. */
function pushRow(columns: unknown[][], row: readonly unknown[]): void {
  for (let i = 0; i < row.length; i++) columns[i]?.push(row[i]);
}

/** Ids taken from a table's sequence ahead of the insert, so rows can name each other. */
async function nextIds(client: Queryable, table: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows = await rowsOf<{ id: number }>(
    client,
    `SELECT nextval(pg_get_serial_sequence('${table}', 'id'))::bigint AS id FROM generate_series(1, $1)`,
    [count],
  );
  return rows.map((row) => row.id);
}

/** Removes documents (their chunks, terms and graph rows go with them) and takes them off the statistics. */
export async function deleteDocuments(
  client: Queryable,
  projectId: number,
  documentIds: readonly number[],
): Promise<void> {
  if (documentIds.length === 0) return;
  const [gone] = await rowsOf<{ chunks: number; tokens: number }>(
    client,
    `SELECT count(*)::bigint AS chunks, coalesce(sum(text_length), 0)::bigint AS tokens
     FROM chunks WHERE project_id = $1 AND document_id = ANY($2::bigint[])`,
    [projectId, documentIds],
  );
  await client.query(
    `DELETE FROM chunk_terms WHERE chunk_id IN (
       SELECT id FROM chunks WHERE project_id = $1 AND document_id = ANY($2::bigint[]))`,
    [projectId, documentIds],
  );
  await client.query("DELETE FROM documents WHERE project_id = $1 AND id = ANY($2::bigint[])", [
    projectId,
    documentIds,
  ]);
  await addTextStats(client, projectId, -(gone?.chunks ?? 0), -(gone?.tokens ?? 0));
}

export async function addTextStats(
  client: Queryable,
  projectId: number,
  chunks: number,
  tokens: number,
): Promise<void> {
  if (chunks === 0 && tokens === 0) return;
  await client.query(
    "UPDATE ctx_projects SET text_chunks = text_chunks + $2, text_tokens = text_tokens + $3 WHERE id = $1",
    [projectId, chunks, tokens],
  );
}

/** Raises the project's graph generation (and locks its row: one writer of a project at a time). */
export async function bumpGeneration(client: Queryable, projectId: number): Promise<number> {
  const [row] = await rowsOf<{ generation: number }>(
    client,
    "UPDATE ctx_projects SET graph_generation = graph_generation + 1 WHERE id = $1 RETURNING graph_generation AS generation",
    [projectId],
  );
  return row?.generation ?? 0;
}

/**
 * Replaces each document at (resource, path) with its chunks, full-text rows
 * and graph, all in one transaction; returns the full-text rows written.
 */
export async function writeDocuments(
  session: PgSession,
  documents: readonly DocumentToStore[],
): Promise<number> {
  if (documents.length === 0) return 0;
  const { projectId } = session;
  return session.transaction(async (client) => {
    const generation = await bumpGeneration(client, projectId);
    const old = await rowsOf<{ id: number }>(
      client,
      `SELECT d.id FROM documents d
       JOIN unnest($2::text[], $3::text[]) AS w(resource_id, path)
         ON d.resource_id = w.resource_id AND d.path = w.path
       WHERE d.project_id = $1`,
      [projectId, documents.map((d) => d.resourceId), documents.map((d) => d.path)],
    );
    await deleteDocuments(
      client,
      projectId,
      old.map((row) => row.id),
    );
    const documentIds = await nextIds(client, "documents", documents.length);
    await client.query(
      `INSERT INTO documents (id, project_id, resource_id, path, language, size, mtime_ms, hash, graph_generation)
       SELECT id, $1, resource_id, path, language, size, mtime, hash, $9
       FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::text[])
         AS t(id, resource_id, path, language, size, mtime, hash)`,
      [
        projectId,
        documentIds,
        documents.map((d) => d.resourceId),
        documents.map((d) => d.path),
        documents.map((d) => d.language),
        documents.map((d) => d.size),
        documents.map((d) => Math.trunc(d.mtimeMs)),
        documents.map((d) => d.hash),
        generation,
      ],
    );
    const chunkCount = documents.reduce((sum, d) => sum + d.chunks.length, 0);
    const chunkIds = await nextIds(client, "chunks", chunkCount);
    const chunks = new ChunkColumns();
    const terms = new TermColumns();
    const graph = new GraphColumns();
    let next = 0;
    let tokens = 0;
    documents.forEach((document, index) => {
      const documentId = documentIds[index] as number;
      const ids: number[] = [];
      for (const [ordinal, chunk] of document.chunks.entries()) {
        const id = chunkIds[next++] as number;
        ids.push(id);
        const length = terms.add(id, chunk.search);
        tokens += length;
        const parentId = chunk.parent === null ? null : (ids[chunk.parent] ?? null);
        chunks.add(id, documentId, ordinal, parentId, length, chunk);
      }
      if (document.graph) graph.add(documentId, document.graph);
    });
    await chunks.insert(client, projectId);
    await terms.insert(client, projectId);
    await graph.insert(client, projectId);
    await addTextStats(client, projectId, chunkCount, tokens);
    return terms.terms.length;
  });
}

type ChunkInput = DocumentToStore["chunks"][number];

class ChunkColumns {
  private readonly columns: unknown[][] = Array.from({ length: 18 }, () => []);

  add(
    id: number,
    documentId: number,
    ordinal: number,
    parentId: number | null,
    length: number,
    chunk: ChunkInput,
  ): void {
    const values = [
      id,
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
      length,
    ];
    pushRow(this.columns, values);
  }

  async insert(client: Queryable, projectId: number): Promise<void> {
    if ((this.columns[0]?.length ?? 0) === 0) return;
    await client.query(
      `INSERT INTO chunks (id, project_id, document_id, ordinal, start_line, end_line, kind, symbol,
         parent_id, content, header, defines, context, tokens, hash, context_key, context_status,
         embed_hash, text_length)
       SELECT id, $1, document_id, ordinal, start_line, end_line, kind, symbol, parent_id, content,
         header, defines, context, tokens, hash, context_key, context_status, embed_hash, text_length
       FROM unnest($2::bigint[], $3::bigint[], $4::int[], $5::int[], $6::int[], $7::text[], $8::text[],
         $9::bigint[], $10::text[], $11::text[], $12::text[], $13::text[], $14::int[], $15::text[],
         $16::text[], $17::text[], $18::text[], $19::int[])
         AS t(id, document_id, ordinal, start_line, end_line, kind, symbol, parent_id, content, header,
           defines, context, tokens, hash, context_key, context_status, embed_hash, text_length)`,
      [projectId, ...this.columns],
    );
  }
}

/** A document's graph rows as columns, written with its chunks. */
class GraphColumns {
  private readonly definitions: unknown[][] = Array.from({ length: 8 }, () => []);
  private readonly references: unknown[][] = Array.from({ length: 4 }, () => []);
  private readonly imports: unknown[][] = Array.from({ length: 6 }, () => []);

  add(documentId: number, graph: FileGraph): void {
    for (const d of graph.definitions) {
      const row = [
        documentId,
        d.name,
        d.kind,
        d.startLine,
        d.endLine,
        d.parent,
        d.signature,
        d.doc ?? "",
      ];
      pushRow(this.definitions, row);
    }
    for (const r of graph.references) {
      const row = [documentId, r.name, storedKind(r), r.lines.join(",")];
      pushRow(this.references, row);
    }
    for (const i of graph.imports) {
      const row = [
        documentId,
        i.specifier,
        i.line,
        i.names.join(","),
        JSON.stringify(i.targets),
        i.reexport,
      ];
      pushRow(this.imports, row);
    }
  }

  async insert(client: Queryable, projectId: number): Promise<void> {
    if ((this.definitions[0]?.length ?? 0) > 0) {
      await client.query(
        `INSERT INTO graph_definitions (project_id, document_id, name, kind, start_line, end_line, parent, signature, doc)
         SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[], $9::text[])`,
        [projectId, ...this.definitions],
      );
    }
    if ((this.references[0]?.length ?? 0) > 0) {
      await client.query(
        `INSERT INTO graph_references (project_id, document_id, name, kind, lines)
         SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[])`,
        [projectId, ...this.references],
      );
    }
    if ((this.imports[0]?.length ?? 0) > 0) {
      await client.query(
        `INSERT INTO graph_imports (project_id, document_id, specifier, line, names, targets, reexport)
         SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::int[], $5::text[], $6::text[], $7::boolean[])`,
        [projectId, ...this.imports],
      );
    }
  }
}

/**
 * Makes the next index run read these documents' files again (their stored
 * text failed its checksum): a size and hash no file has.
 */
export async function markForReading(
  session: PgSession,
  documentIds: readonly number[],
): Promise<void> {
  await session.rows(
    "UPDATE documents SET size = -1, hash = '' WHERE project_id = $1 AND id = ANY($2::bigint[])",
    [session.projectId, documentIds],
  );
}
