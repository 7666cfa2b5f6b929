import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { IndexBusyError, StoreError } from "../../src/core/errors.js";
import type { CommitRecord } from "../../src/core/history.js";
import type { DocumentToStore } from "../../src/core/store.js";
import { emptySkipCounts } from "../../src/core/types.js";
import { documentSearchTexts } from "../../src/ingest/stored-search-text.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { document } from "../helpers/store-documents.js";
import { tempDir } from "../helpers/temp-dir.js";

/**
 * A new index file whose `count` documents were all written twice (`a<i>` then
 * `b<i>`), so their first full-text rows are deleted and compaction is due.
 */
async function rewrittenStore(count: number) {
  const file = join(tempDir(), "index.db");
  const store = SqliteStore.open(file, { create: true });
  const resource = await store.documents.ensureResource("/repo", "git");
  const paths = Array.from({ length: count }, (_, i) => `src/file${i}.ts`);
  await store.documents.writeDocuments(
    paths.map((path, i) => document(resource.id, path, `function a${i}() {}`)),
  );
  await store.documents.writeDocuments(
    paths.map((path, i) => document(resource.id, path, `function b${i}() {}`)),
  );
  return { file, store, resource };
}

/** SQLite's own behaviour; what every store does is in the role contracts (test/store/contract/). */
describe("SqliteStore", () => {
  it("rewrites many documents and reclaims their old full-text rows when compacted", async () => {
    const file = join(tempDir(), "index.db");
    const store = SqliteStore.open(file, { create: true });
    const resource = await store.documents.ensureResource("/repo", "git");
    const paths = Array.from({ length: 1200 }, (_, i) => `src/file${i}.ts`);
    await store.documents.writeDocuments(
      paths.map((path, i) => document(resource.id, path, `function oldName${i}() {}`)),
    );
    // Half of them change: their old rows stay in the index until compaction.
    await store.documents.writeDocuments(
      paths
        .slice(0, 600)
        .map((path, i) => document(resource.id, path, `function newName${i}() {}`)),
    );
    const indexBytes = () =>
      (
        new Database(file, { readonly: true })
          .prepare("SELECT sum(length(block)) AS bytes FROM chunks_fts_data")
          .get() as { bytes: number }
      ).bytes;
    const before = indexBytes();

    await store.documents.compact(documentSearchTexts);

    expect(indexBytes()).toBeLessThan(before * 0.8);
    expect(await store.state.getMeta("fts_deleted_rows")).toBeNull();
    expect(await store.documents.searchText({ terms: ["oldname7"], limit: 10 })).toEqual([]);
    expect((await store.documents.searchText({ terms: ["newname7"], limit: 10 })).length).toBe(1);
    expect((await store.documents.searchText({ terms: ["oldname700"], limit: 10 })).length).toBe(1);
    expect((await store.stats()).documents).toBe(1200);

    // Ranking as in a fresh index of the same documents (row count and lengths put right).
    const fresh = SqliteStore.open(join(tempDir(), "fresh.db"), { create: true });
    const freshResource = await fresh.documents.ensureResource("/repo", "git");
    await fresh.documents.writeDocuments(
      paths.map((path, i) =>
        document(
          freshResource.id,
          path,
          i < 600 ? `function newName${i}() {}` : `function oldName${i}() {}`,
        ),
      ),
    );
    const scores = async (from: SqliteStore) =>
      (await from.documents.searchText({ terms: ["newname7", "oldname700"], limit: 5 }))
        .map((hit) => `${hit.chunk.path} ${hit.score.toFixed(9)}`)
        .sort();
    expect(await scores(store)).toEqual(await scores(fresh));
    await fresh.close();
    await store.close();
  });

  it("keeps the full-text table's definition and gives a rebuild up when documents change meanwhile", async () => {
    const { file, store, resource } = await rewrittenStore(300);
    // Table definitions and FTS5 settings (a renamed table's name comes back quoted).
    const schema = () => {
      const db = new Database(file, { readonly: true });
      const tables = (
        db
          .prepare(
            "SELECT name, sql FROM sqlite_master WHERE name LIKE 'chunks_fts%' ORDER BY name",
          )
          .all() as { name: string; sql: string }[]
      ).map(({ name, sql }) => `${name}: ${sql.replace(/["'](chunks_fts\w*)["']/g, "$1")}`);
      const settings = db.prepare("SELECT k, v FROM chunks_fts_config ORDER BY k").all();
      db.close();
      return { tables, settings };
    };
    const before = schema();

    // The first batch is indexed before compact() first yields; a write then makes it give up.
    const compacting = store.documents.compact(documentSearchTexts);
    await store.documents.writeDocuments([
      document(resource.id, "src/late.ts", "function lateComer() {}"),
    ]);
    await compacting;
    expect(schema()).toEqual(before);
    expect(await store.state.getMeta("fts_deleted_rows")).toBe("300");
    expect((await store.documents.searchText({ terms: ["latecomer"], limit: 5 })).length).toBe(1);

    await store.documents.compact(documentSearchTexts);
    expect(schema()).toEqual(before);
    expect(await store.state.getMeta("fts_deleted_rows")).toBeNull();
    expect((await store.documents.searchText({ terms: ["latecomer"], limit: 5 })).length).toBe(1);
    expect((await store.documents.searchText({ terms: ["b299"], limit: 5 })).length).toBe(1);
    expect(await store.documents.searchText({ terms: ["a299"], limit: 5 })).toEqual([]);
    await store.close();
  });

  it("lets one connection at a time rebuild the full-text index; a second one leaves it to the first", async () => {
    const { file, store: first } = await rewrittenStore(300);
    // Another process's connection finds compaction due while the first is between batches.
    const second = SqliteStore.open(file, { create: false });
    const compacting = first.documents.compact(documentSearchTexts);
    await second.documents.compact(documentSearchTexts);
    await compacting;
    expect(await second.state.getMeta("fts_deleted_rows")).toBeNull();
    expect(await second.state.getMeta("fts_rebuild_lease")).toBeNull();
    expect((await second.documents.searchText({ terms: ["b299"], limit: 5 })).length).toBe(1);
    expect(await second.documents.searchText({ terms: ["a299"], limit: 5 })).toEqual([]);
    expect((await second.stats()).chunks).toBe(300);
    await first.close();
    await second.close();
  });

  it("takes over the rebuild lease of a process that died, not of one that is alive", async () => {
    const { file, store } = await rewrittenStore(60);
    const other = new Database(file);
    const lease = (at: number) =>
      other
        .prepare("INSERT OR REPLACE INTO ctx_meta (key, value) VALUES ('fts_rebuild_lease', ?)")
        .run(`another-process ${at}`);
    lease(Date.now());
    await store.documents.compact(documentSearchTexts);
    expect(await store.state.getMeta("fts_deleted_rows")).toBe("60");

    // Ten minutes without a renewal, and the side table it was building is left behind.
    lease(Date.now() - 10 * 60 * 1000);
    other.exec("CREATE VIRTUAL TABLE chunks_fts_next USING fts5(path, symbols, context, body)");
    other.close();
    await store.documents.compact(documentSearchTexts);
    expect(await store.state.getMeta("fts_deleted_rows")).toBeNull();
    expect(await store.state.getMeta("fts_rebuild_lease")).toBeNull();
    expect((await store.documents.searchText({ terms: ["b59"], limit: 5 })).length).toBe(1);
    expect(await store.documents.searchText({ terms: ["a59"], limit: 5 })).toEqual([]);
    await store.close();
  });

  it("waits for another process's write, and past the busy timeout says the index is busy and keeps what it holds", async () => {
    const file = join(tempDir(), "index.db");
    const store = SqliteStore.open(file, { create: true });
    const resource = await store.documents.ensureResource("/repo", "git");
    await store.documents.writeDocuments([
      document(resource.id, "src/kept.ts", "function keptBefore() {}"),
    ]);
    const holder = new Database(file);
    holder.exec("BEGIN IMMEDIATE");
    const write = store.documents.writeDocuments([
      document(resource.id, "src/new.ts", "function waitedFor() {}"),
    ]);
    await expect(write).rejects.toThrow(IndexBusyError);
    await expect(write).rejects.toThrow(`${file}: the index is busy`);
    holder.exec("ROLLBACK");
    holder.close();
    expect((await store.documents.searchText({ terms: ["keptbefore"], limit: 5 })).length).toBe(1);
    await store.documents.writeDocuments([
      document(resource.id, "src/new.ts", "function waitedFor() {}"),
    ]);
    expect((await store.documents.searchText({ terms: ["waitedfor"], limit: 5 })).length).toBe(1);
    await store.close();
  }, 20_000);

  it("merges the full-text index's segments after a large write, with the same answers", async () => {
    const file = join(tempDir(), "index.db");
    const store = SqliteStore.open(file, { create: true });
    const resource = await store.documents.ensureResource("/repo", "git");
    // One transaction per batch, as a run writes: FTS5 leaves a segment per transaction.
    for (let batch = 0; batch < 25; batch++) {
      await store.documents.writeDocuments(
        Array.from({ length: 100 }, (_, i) => {
          const n = batch * 100 + i;
          return document(resource.id, `src/file${n}.ts`, `function merged${n % 37}Name${n}() {}`);
        }),
      );
    }
    const segments = () =>
      (
        new Database(file, { readonly: true })
          .prepare("SELECT count(*) AS rows FROM chunks_fts_data")
          .get() as { rows: number }
      ).rows;
    const answers = async () =>
      Promise.all(
        ["merged3", "merged36", "name2499", "function"].map(async (term) =>
          (await store.documents.searchText({ terms: [term], limit: 50 })).map(
            (hit) => `${hit.chunk.path} ${hit.score.toFixed(6)}`,
          ),
        ),
      );
    const before = await answers();
    const rowsBefore = segments();
    expect(await store.documents.compactionDue()).toBe(true);

    await store.documents.compact(documentSearchTexts);

    expect(segments()).toBeLessThan(rowsBefore);
    expect(await answers()).toEqual(before);
    expect(await store.state.getMeta("fts_unmerged_rows")).toBeNull();
    expect(await store.documents.compactionDue()).toBe(false);
    // A small write afterwards is not worth another merge.
    await store.documents.writeDocuments([
      document(resource.id, "src/extra.ts", "function extra() {}"),
    ]);
    expect(await store.documents.compactionDue()).toBe(false);
    await store.close();
  });

  it("leaves the full-text index alone when few rows were deleted", async () => {
    const store = SqliteStore.open(join(tempDir(), "index.db"), { create: true });
    const resource = await store.documents.ensureResource("/repo", "git");
    await store.documents.writeDocuments([document(resource.id, "a.ts", "function first() {}")]);
    await store.documents.writeDocuments([document(resource.id, "a.ts", "function second() {}")]);
    await store.documents.compact(documentSearchTexts);
    expect(await store.state.getMeta("fts_deleted_rows")).toBe("1");
    await store.close();
  });

  it("keeps the references of an index written before they were packed, in their order", async () => {
    const file = join(tempDir(), "index.db");
    let store = SqliteStore.open(file, { create: true });
    const resource = await store.documents.ensureResource("/repo", "git");
    await store.documents.writeDocuments([
      document(resource.id, "src/a.ts", "a"),
      document(resource.id, "src/b.ts", "b"),
    ]);
    await store.close();
    // Back to schema 11, with references as rows of their own.
    const db = new Database(file);
    db.exec(`DROP TRIGGER graph_reference_list_gone; DROP TABLE graph_reference_names;
      DROP TABLE graph_reference_lists;
      CREATE TABLE graph_references (
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        name TEXT NOT NULL, kind TEXT NOT NULL, lines TEXT NOT NULL);
      ALTER TABLE history_commits DROP COLUMN identifiers;
      UPDATE ctx_meta SET value = '11' WHERE key = 'schema_version';`);
    const ids = Object.fromEntries(
      (db.prepare("SELECT path, id FROM documents").all() as { path: string; id: number }[]).map(
        (row) => [row.path, row.id],
      ),
    );
    const insert = db.prepare("INSERT INTO graph_references VALUES (?, ?, ?, ?)");
    insert.run(ids["src/a.ts"], "zeta", "use", "4");
    insert.run(ids["src/a.ts"], "alpha", "call", "1,2");
    insert.run(ids["src/b.ts"], "alpha", "inherit", "7");
    insert.run(ids["src/a.ts"], "empty?", "type", "3");
    db.close();
    store = SqliteStore.open(file, { create: false });
    const graph = new Database(file, { readonly: true });
    expect(
      graph.prepare("SELECT refs FROM graph_reference_lists ORDER BY document_id").pluck().all(),
    ).toEqual(["uzeta\t4\ncalpha\t1,2\ntempty?\t3", "halpha\t7"]);
    graph.close();
    expect(
      (await store.graph.findReferences("alpha")).map((r) => `${r.path}:${r.line} ${r.kind}`),
    ).toEqual(["src/a.ts:1 call", "src/a.ts:2 call", "src/b.ts:7 inherit"]);
    expect((await store.graph.findReferences("empty?")).map((r) => r.line)).toEqual([3]);
    expect((await store.stats()).graph.references).toBe(4);
    await store.close();
  });
  it("keeps the commit messages of an index written before they were indexed over the commits, scored as a fresh index's", async () => {
    const commit = (i: number, subject: string): CommitRecord => ({
      sha: i.toString(16).padStart(40, "0"),
      parents: [],
      author: "Ada",
      email: "ada@example.com",
      date: `2024-01-0${i}T00:00:00Z`,
      committedAt: 1_704_067_200 + i * 60,
      subject,
      body: "",
      changes: [{ path: `src/f${i}.ts`, oldPath: null, added: 1, removed: 0 }],
    });
    const commits = [
      commit(1, "refund the basket"),
      commit(2, "refund the voucher"),
      commit(3, "shipping label"),
      commit(4, "refund refund label"),
    ];
    const stored = async (file: string) => {
      const store = SqliteStore.open(file, { create: true });
      const resource = await store.documents.ensureResource("/repo", "git");
      await store.history.writeHistory({
        resourceId: resource.id,
        add: commits,
        remove: [],
        relink: false,
        readAt: null,
      });
      return { store, resource };
    };
    const file = join(tempDir(), "index.db");
    await (await stored(file)).store.close();
    // Back to schema 13, with the messages in a contentless table of their own.
    const db = new Database(file);
    db.exec(`DROP TRIGGER commit_message_gone; DROP TABLE commit_messages;
      CREATE VIRTUAL TABLE commit_messages USING fts5(subject, body, content = '',
        contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2');
      INSERT INTO commit_messages (rowid, subject, body) SELECT id, subject, body FROM history_commits;
      CREATE TRIGGER commit_message_gone AFTER DELETE ON history_commits
      BEGIN DELETE FROM commit_messages WHERE rowid = old.id; END;
      UPDATE ctx_meta SET value = '13' WHERE key = 'schema_version';`);
    db.close();

    const store = SqliteStore.open(file, { create: false });
    const [resource] = await store.documents.listResources();
    const id = resource?.id ?? "";
    expect(
      (await store.history.filesOfMatchingCommits(id, ["refund"], 10, 10)).map((m) => m.path),
    ).toEqual(["src/f4.ts", "src/f1.ts", "src/f2.ts"]);
    // A commit dropped: gone from the search and from the figures its scores divide by.
    await store.history.writeHistory({
      resourceId: id,
      add: [],
      remove: [commits[0]?.sha ?? ""],
      relink: false,
      readAt: null,
    });
    const fresh = join(tempDir(), "index.db");
    const other = await stored(fresh);
    await other.store.history.writeHistory({
      resourceId: other.resource.id,
      add: [],
      remove: [commits[0]?.sha ?? ""],
      relink: false,
      readAt: null,
    });
    for (const terms of [["refund"], ["label"], ["basket"]]) {
      expect(await store.history.filesOfMatchingCommits(id, terms, 10, 10)).toEqual(
        await other.store.history.filesOfMatchingCommits(other.resource.id, terms, 10, 10),
      );
    }
    await store.close();
    await other.store.close();
  });

  it("builds the graph's name indexes after a first run fills the tables, or on open after a run that stopped", async () => {
    const file = join(tempDir(), "index.db");
    const nameIndexes = () => {
      const db = new Database(file, { readonly: true });
      try {
        return (
          db
            .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '%name'")
            .all() as { name: string }[]
        )
          .map((row) => row.name)
          .sort();
      } finally {
        db.close();
      }
    };
    const all = ["graph_definitions_by_lower_name", "graph_definitions_by_name"];
    const withGraph = (resourceId: string, path: string, uses: string): DocumentToStore => ({
      ...document(resourceId, path, `function f() { ${uses}(); }`),
      graph: {
        definitions: [
          { name: "f", kind: "function", startLine: 1, endLine: 1, parent: "", signature: "" },
        ],
        references: [{ name: uses, kind: "call", lines: [1] }],
        imports: [],
      },
    });
    let store = SqliteStore.open(file, { create: true });
    let resource = await store.documents.ensureResource("/repo", "git");
    await store.documents.writeDocuments([withGraph(resource.id, "src/a.ts", "alpha")]);
    // Mid-run: the name indexes wait for the end, and look-ups answer all the same.
    expect(nameIndexes()).toEqual([]);
    expect((await store.graph.findReferences("alpha")).map((r) => r.path)).toEqual(["src/a.ts"]);
    await store.documents.recordRun(resource.id, emptySkipCounts(), new Date().toISOString());
    expect(nameIndexes()).toEqual(all);
    // A later run writes into filled tables, with the indexes in place.
    await store.documents.writeDocuments([withGraph(resource.id, "src/b.ts", "alpha")]);
    expect(nameIndexes()).toEqual(all);
    await store.close();

    // A first run that stops before its end (the process killed): the next open builds them.
    const second = join(tempDir(), "index.db");
    store = SqliteStore.open(second, { create: true });
    resource = await store.documents.ensureResource("/repo", "git");
    await store.documents.writeDocuments([withGraph(resource.id, "src/a.ts", "alpha")]);
    await store.close();
    store = SqliteStore.open(second, { create: false });
    await store.close();
    const db = new Database(second, { readonly: true });
    expect(
      db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name IN (?, ?)").get(...all),
    ).toEqual({ n: 2 });
    db.close();
  });

  it("refuses a file that is not a database, without touching it", () => {
    const file = join(tempDir(), "index.db");
    writeFileSync(file, "this is not sqlite at all, just some text that happens to be here");
    expect(() => SqliteStore.open(file, { create: true })).toThrow(StoreError);
    expect(() => SqliteStore.open(file, { create: true })).toThrow(/not an index database/);
  });

  it("refuses an SQLite file that belongs to something else", () => {
    const file = join(tempDir(), "other.db");
    const other = new Database(file);
    other.exec("CREATE TABLE customers (id INTEGER)");
    other.close();
    expect(() => SqliteStore.open(file, { create: true })).toThrow(/not a ctx index/);
    const reopened = new Database(file);
    expect(reopened.prepare("SELECT name FROM sqlite_master").all()).toEqual([
      { name: "customers" },
    ]);
    reopened.close();
  });
});
