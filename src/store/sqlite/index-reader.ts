import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import type { BreakerRecord } from "../../core/breaker.js";
import { IndexMissingError, StoreError } from "../../core/errors.js";
import type { FileGraph, ImportTarget, SymbolKind } from "../../core/graph.js";
import type { CommitRecord } from "../../core/history.js";
import type { DecisionToRecord } from "../../core/plans.js";
import type {
  CachedContext,
  ChunkToStore,
  ContextStatus,
  DocumentToStore,
  SearchText,
} from "../../core/store.js";
import type { ChunkKind, Resource, StoredChunk } from "../../core/types.js";
import { namesOf, SWEEP } from "../commit-identifier-rows.js";
import { parseSkipped } from "../resource-rows.js";
import { SCHEMA_VERSION } from "./migrations.js";
import { unpackReferences } from "./reference-lists.js";
import { loadVectorExtension } from "./vector-extension.js";

/** A plan as stored, with its decisions, for copying elsewhere. */
export interface ExportedPlan {
  readonly id: number;
  readonly project: string;
  readonly parentId: number | null;
  readonly title: string;
  readonly status: "open" | "closed";
  readonly outcome: string | null;
  readonly createdAt: string;
  readonly closedAt: string | null;
  readonly decisions: readonly (DecisionToRecord & { readonly decidedAt: string })[];
}

interface ChunkRow {
  id: number;
  start_line: number;
  end_line: number;
  kind: string;
  symbol: string;
  parent_id: number | null;
  content: string;
  header: string;
  defines: string;
  context: string | null;
  tokens: number;
  hash: string;
  context_key: string | null;
  context_status: string | null;
  embed_hash: string;
}

/**
 * Reads everything an SQLite index holds, read-only, for `ctx migrate`: what
 * was paid for (contexts, vectors) comes along as stored, never recomputed.
 */
export class SqliteIndexReader {
  private readonly db: Database.Database;

  constructor(readonly file: string) {
    if (!existsSync(file)) throw new IndexMissingError(file);
    try {
      this.db = new Database(file, { readonly: true, fileMustExist: true });
      const version = this.db
        .prepare("SELECT value FROM ctx_meta WHERE key = 'schema_version'")
        .get() as { value: string } | undefined;
      if (Number(version?.value ?? 0) !== SCHEMA_VERSION) {
        throw new Error(
          `its schema is version ${version?.value ?? "none"}, this ctx copies version ${SCHEMA_VERSION}: open it with \`ctx status --db ${file}\` first`,
        );
      }
    } catch (error) {
      throw new StoreError(file, `cannot read the index to copy: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  resources(): Resource[] {
    const rows = this.db.prepare("SELECT * FROM resources ORDER BY added_at, id").all() as {
      id: string;
      root: string;
      kind: Resource["kind"];
      added_at: string;
      last_indexed_at: string | null;
      skipped: string;
    }[];
    return rows.map((row) => ({
      id: row.id,
      root: row.root,
      kind: row.kind,
      addedAt: row.added_at,
      lastIndexedAt: row.last_indexed_at,
      ...parseSkipped(row.skipped),
    }));
  }

  /** The documents of a resource with their chunks (contexts and keys as stored) and graphs, `batch` at a time. */
  *documents(
    resourceId: string,
    searchTexts: (chunks: readonly StoredChunk[]) => SearchText[],
    batch: number,
  ): Generator<DocumentToStore[]> {
    const documents = this.db
      .prepare(
        "SELECT id, path, language, size, mtime_ms, hash FROM documents WHERE resource_id = ? ORDER BY id",
      )
      .all(resourceId) as {
      id: number;
      path: string;
      language: string;
      size: number;
      mtime_ms: number;
      hash: string;
    }[];
    const chunks = this.db.prepare("SELECT * FROM chunks WHERE document_id = ? ORDER BY ordinal");
    let out: DocumentToStore[] = [];
    for (const document of documents) {
      const rows = chunks.all(document.id) as ChunkRow[];
      const search = searchTexts(
        rows.map((row) => ({
          id: row.id,
          documentId: document.id,
          resourceId,
          path: document.path,
          language: document.language,
          startLine: row.start_line,
          endLine: row.end_line,
          kind: row.kind as ChunkKind,
          symbol: row.symbol,
          parentId: row.parent_id,
          parentSymbol: "",
          content: row.content,
          header: row.header,
          defines: row.defines.length > 0 ? row.defines.split(" ") : [],
          context: row.context,
          contextStatus: row.context_status,
          hash: row.hash,
          tokens: row.tokens,
        })),
      );
      const ordinals = new Map(rows.map((row, i) => [row.id, i]));
      const stored: ChunkToStore[] = rows.map((row, i) => ({
        startLine: row.start_line,
        endLine: row.end_line,
        kind: row.kind as ChunkKind,
        symbol: row.symbol,
        parent: row.parent_id === null ? null : (ordinals.get(row.parent_id) ?? null),
        content: row.content,
        header: row.header,
        defines: row.defines.length > 0 ? row.defines.split(" ") : [],
        tokens: row.tokens,
        hash: row.hash,
        context: row.context,
        contextKey: row.context_key,
        contextStatus: row.context_status as ContextStatus | null,
        embedHash: row.embed_hash,
        search: search[i] as SearchText,
      }));
      out.push({
        resourceId,
        path: document.path,
        language: document.language,
        size: document.size,
        mtimeMs: document.mtime_ms,
        hash: document.hash,
        chunks: stored,
        graph: this.graphOf(document.id),
      });
      if (out.length >= batch) {
        yield out;
        out = [];
      }
    }
    if (out.length > 0) yield out;
  }

  private graphOf(documentId: number): FileGraph {
    const definitions = this.db
      .prepare(
        `SELECT name, kind, start_line AS startLine, end_line AS endLine, parent, signature, doc
         FROM graph_definitions WHERE document_id = ? ORDER BY id`,
      )
      .all(documentId) as {
      name: string;
      kind: SymbolKind;
      startLine: number;
      endLine: number;
      parent: string;
      signature: string;
      doc: string;
    }[];
    const packed = this.db
      .prepare("SELECT refs FROM graph_reference_lists WHERE document_id = ?")
      .pluck()
      .get(documentId) as string | undefined;
    const imports = this.db
      .prepare(
        "SELECT specifier, line, names, targets, reexport FROM graph_imports WHERE document_id = ? ORDER BY rowid",
      )
      .all(documentId) as {
      specifier: string;
      line: number;
      names: string;
      targets: string;
      reexport: number;
    }[];
    return {
      definitions: definitions.map((d) => ({ ...d, ...(d.doc === "" ? {} : { doc: d.doc }) })),
      references: unpackReferences(packed ?? ""),
      imports: imports.map((i) => ({
        specifier: i.specifier,
        line: i.line,
        names: i.names === "" ? [] : i.names.split(","),
        targets: JSON.parse(i.targets) as ImportTarget[],
        reexport: i.reexport === 1,
      })),
    };
  }

  /**
   * A resource's commits, oldest first, with their file changes; the head last
   * read; and what the diffs read touched (null: a sweep).
   */
  history(resourceId: string): {
    commits: CommitRecord[];
    head: string | null;
    identifiers: { sha: string; identifiers: string[] | null }[];
  } {
    const commits = this.db
      .prepare("SELECT * FROM history_commits WHERE resource_id = ? ORDER BY committed_at, id")
      .all(resourceId) as {
      id: number;
      sha: string;
      parents: string;
      author: string;
      email: string;
      authored_at: string;
      committed_at: number;
      subject: string;
      body: string;
      identifiers: string | null;
    }[];
    const changes = this.db.prepare(
      "SELECT path, old_path AS oldPath, added, removed FROM history_changes WHERE commit_id = ? ORDER BY rowid",
    );
    const head = this.db
      .prepare("SELECT head FROM history_heads WHERE resource_id = ?")
      .get(resourceId) as { head: string } | undefined;
    return {
      head: head?.head ?? null,
      identifiers: commits.flatMap(({ sha, identifiers }) =>
        identifiers === null
          ? []
          : [{ sha, identifiers: identifiers === SWEEP ? null : namesOf(identifiers) }],
      ),
      commits: commits.map((commit) => ({
        sha: commit.sha,
        parents: commit.parents.length > 0 ? commit.parents.split(" ") : [],
        author: commit.author,
        email: commit.email,
        date: commit.authored_at,
        committedAt: commit.committed_at,
        subject: commit.subject,
        body: commit.body,
        changes: changes.all(commit.id) as CommitRecord["changes"][number][],
      })),
    };
  }

  /** Each embedder's vectors by embed hash, `batch` at a time. */
  *vectors(batch: number): Generator<{
    embedderId: string;
    dimensions: number;
    entries: { embedHash: string; vector: Float32Array }[];
  }> {
    const embedders = this.db
      .prepare("SELECT id, dimensions, vector_table FROM embedders")
      .all() as {
      id: string;
      dimensions: number;
      vector_table: string;
    }[];
    if (embedders.length === 0 || !loadVectorExtension(this.db)) return;
    for (const embedder of embedders) {
      const rows = this.db
        .prepare(
          `SELECT e.embed_hash AS embedHash, v.embedding AS vector FROM embedding_rows e
           JOIN ${embedder.vector_table} v ON v.rowid = e.rowid WHERE e.embedder = ? ORDER BY e.rowid`,
        )
        .all(embedder.id) as { embedHash: string; vector: Buffer }[];
      for (let start = 0; start < rows.length; start += batch) {
        yield {
          embedderId: embedder.id,
          dimensions: embedder.dimensions,
          entries: rows.slice(start, start + batch).map((row) => ({
            embedHash: row.embedHash,
            vector: new Float32Array(
              row.vector.buffer.slice(
                row.vector.byteOffset,
                row.vector.byteOffset + row.vector.byteLength,
              ),
            ),
          })),
        };
      }
    }
  }

  cachedContexts(): CachedContext[] {
    return this.db
      .prepare("SELECT key, context, generator, model FROM context_cache ORDER BY key")
      .all() as CachedContext[];
  }

  meta(key: string): string | null {
    const row = this.db.prepare("SELECT value FROM ctx_meta WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row?.value ?? null;
  }

  projectSettings(): { name: string; strategies: string[] | null }[] {
    const rows = this.db
      .prepare("SELECT name, enabled_strategies FROM projects ORDER BY name")
      .all() as {
      name: string;
      enabled_strategies: string | null;
    }[];
    return rows.map((row) => ({
      name: row.name,
      strategies: row.enabled_strategies ? (JSON.parse(row.enabled_strategies) as string[]) : null,
    }));
  }

  breakers(): { project: string; record: BreakerRecord }[] {
    const rows = this.db
      .prepare("SELECT project, strategy, failures, opened_at FROM strategy_breakers")
      .all() as {
      project: string;
      strategy: string;
      failures: number;
      opened_at: number | null;
    }[];
    return rows.map((row) => ({
      project: row.project,
      record: { strategy: row.strategy, failures: row.failures, openedAt: row.opened_at },
    }));
  }

  plans(): ExportedPlan[] {
    const plans = this.db.prepare("SELECT * FROM plans ORDER BY id").all() as {
      id: number;
      project: string;
      parent_id: number | null;
      title: string;
      status: "open" | "closed";
      outcome: string | null;
      created_at: string;
      closed_at: string | null;
    }[];
    const decisions = this.db.prepare("SELECT * FROM plan_decisions WHERE plan_id = ? ORDER BY id");
    return plans.map((plan) => ({
      id: plan.id,
      project: plan.project,
      parentId: plan.parent_id,
      title: plan.title,
      status: plan.status,
      outcome: plan.outcome,
      createdAt: plan.created_at,
      closedAt: plan.closed_at,
      decisions: (
        decisions.all(plan.id) as {
          what: string;
          why: string;
          alternatives: string;
          outcome: string | null;
          decided_at: string;
        }[]
      ).map((d) => ({
        what: d.what,
        why: d.why,
        alternatives: JSON.parse(d.alternatives) as string[],
        outcome: d.outcome,
        decidedAt: d.decided_at,
      })),
    }));
  }

  close(): void {
    this.db.close();
  }
}
