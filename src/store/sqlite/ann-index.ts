import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type Database from "better-sqlite3";
import type { Index } from "usearch";
import { PRIVATE_FILE_MODE } from "../../core/private-files.js";
import { installCommand, isPackageInstalled } from "../../optional-packages.js";

const require = createRequire(import.meta.url);

type Usearch = typeof import("usearch");

interface Loaded {
  readonly index: Index;
  count: number;
  maxRowid: number;
  dirty: boolean;
}

/** Rows per batch when an index is built from the vector table. */
const BUILD_BATCH = 4096;

/**
 * HNSW indexes (usearch) over an embedder's vectors, used once it has at least
 * `threshold` of them: exact search costs ~60–90 ms at 100k × 384, HNSW about
 * 1 ms. The SQLite vector table stays the source of truth: an index file whose
 * recorded count or last row differs from the table is rebuilt from it.
 */
export class AnnIndexes {
  private readonly loaded = new Map<string, Loaded>();
  /** The native HNSW library (an optional package), loaded when an index is first needed; null when it cannot be. */
  private library: Usearch | null | undefined;

  constructor(
    /** Folder for index files; null keeps indexes in memory only. */
    private readonly folder: string | null,
    readonly threshold: number,
    /** Told once when search stays exact because the library is missing. */
    private readonly warn: (message: string) => void,
  ) {}

  /** Nearest rowids and cosine distances, or null when the embedder is below the threshold (search exactly). */
  search(
    db: Database.Database,
    table: string,
    embedderId: string,
    dimensions: number,
    vector: Float32Array,
    k: number,
  ): { rowid: number; distance: number }[] | null {
    const { count, maxRowid } = db
      .prepare(
        "SELECT count(*) AS count, coalesce(max(rowid), 0) AS maxRowid FROM embedding_rows WHERE embedder = ?",
      )
      .get(embedderId) as { count: number; maxRowid: number };
    if (count < this.threshold || count === 0) return null;
    const library = this.load(count);
    if (!library) return null;
    const entry = this.ensure(db, table, library, dimensions, count, maxRowid);
    const matches = entry.index.search(vector, Math.min(k, count), 0);
    return Array.from(matches.keys, (key, index) => ({
      rowid: Number(key),
      distance: matches.distances[index] ?? 1,
    }));
  }

  /** Keeps a loaded index in step with vectors just written. */
  added(table: string, rows: readonly { rowid: number; vector: Float32Array }[]): void {
    const entry = this.loaded.get(table);
    if (!entry || rows.length === 0) return;
    for (const row of rows) {
      entry.index.add(BigInt(row.rowid), row.vector);
      entry.maxRowid = Math.max(entry.maxRowid, row.rowid);
    }
    entry.count += rows.length;
    entry.dirty = true;
  }

  /** Keeps a loaded index in step with vectors just deleted. */
  removed(table: string, rowids: readonly number[]): void {
    const entry = this.loaded.get(table);
    if (!entry || rowids.length === 0) return;
    for (const rowid of rowids) entry.index.remove(BigInt(rowid));
    entry.count -= rowids.length;
    entry.dirty = true;
  }

  /** Writes indexes that changed since they were loaded or built. */
  save(): void {
    for (const [table, entry] of this.loaded) {
      if (entry.dirty) this.write(table, entry);
    }
  }

  private load(count: number): Usearch | null {
    if (this.library !== undefined) return this.library;
    try {
      this.library = require("usearch") as Usearch;
    } catch (error) {
      this.library = null;
      const why = isPackageInstalled("usearch")
        ? `the optional package usearch cannot be loaded (${(error as Error).message.split("\n")[0]})`
        : `the optional package usearch is not installed: run \`${installCommand("hnsw")}\` for fast search`;
      this.warn(
        `vector search is exact, and slower, at ${count} vectors (past ann_threshold ${this.threshold}): ${why}`,
      );
    }
    return this.library;
  }

  private ensure(
    db: Database.Database,
    table: string,
    library: Usearch,
    dimensions: number,
    count: number,
    maxRowid: number,
  ): Loaded {
    const current = this.loaded.get(table);
    if (current && current.count === count && current.maxRowid === maxRowid) return current;
    const fromFile = current ? null : this.read(table, library, dimensions, count, maxRowid);
    const entry = fromFile ?? this.build(db, table, library, dimensions, count, maxRowid);
    this.loaded.set(table, entry);
    return entry;
  }

  private build(
    db: Database.Database,
    table: string,
    library: Usearch,
    dimensions: number,
    count: number,
    maxRowid: number,
  ): Loaded {
    const index = newIndex(library, dimensions);
    const select = db.prepare(
      `SELECT rowid, embedding FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ?`,
    );
    for (let after = 0; ; ) {
      const rows = select.all(after, BUILD_BATCH) as { rowid: number; embedding: Buffer }[];
      if (rows.length === 0) break;
      const keys = BigUint64Array.from(rows, (row) => BigInt(row.rowid));
      const matrix = new Float32Array(rows.length * dimensions);
      rows.forEach((row, position) => {
        matrix.set(
          new Float32Array(row.embedding.buffer, row.embedding.byteOffset, dimensions),
          position * dimensions,
        );
      });
      index.add(keys, matrix, 0);
      after = rows[rows.length - 1]?.rowid ?? after;
    }
    const entry = { index, count, maxRowid, dirty: true };
    this.write(table, entry);
    return entry;
  }

  private read(
    table: string,
    library: Usearch,
    dimensions: number,
    count: number,
    maxRowid: number,
  ): Loaded | null {
    if (!this.folder) return null;
    const file = join(this.folder, `${table}.usearch`);
    const meta = `${file}.json`;
    if (!existsSync(file) || !existsSync(meta)) return null;
    try {
      const recorded = JSON.parse(readFileSync(meta, "utf8")) as {
        count: number;
        maxRowid: number;
      };
      if (recorded.count !== count || recorded.maxRowid !== maxRowid) return null;
      const index = newIndex(library, dimensions);
      index.load(file);
      return { index, count, maxRowid, dirty: false };
    } catch {
      return null;
    }
  }

  private write(table: string, entry: Loaded): void {
    if (!this.folder) return;
    const file = join(this.folder, `${table}.usearch`);
    // Written aside and renamed, so a reader never sees half a file; the user's
    // only, like the index whose chunks the vectors stand for.
    entry.index.save(`${file}.tmp`);
    chmodSync(`${file}.tmp`, PRIVATE_FILE_MODE);
    renameSync(`${file}.tmp`, file);
    writeFileSync(
      `${file}.json`,
      JSON.stringify({ count: entry.count, maxRowid: entry.maxRowid }),
      {
        mode: PRIVATE_FILE_MODE,
      },
    );
    chmodSync(`${file}.json`, PRIVATE_FILE_MODE);
    entry.dirty = false;
  }
}

function newIndex(library: Usearch, dimensions: number): Index {
  const { Index, MetricKind, ScalarKind } = library;
  return new Index({
    dimensions,
    metric: MetricKind.Cos,
    quantization: ScalarKind.F32,
    connectivity: 16,
    expansion_add: 128,
    expansion_search: 128,
    multi: false,
  });
}
