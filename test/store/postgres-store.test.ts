import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { IndexBusyError, StoreError } from "../../src/core/errors.js";
import type { Store } from "../../src/core/store.js";
import { PostgresStore } from "../../src/store/postgres/postgres-store.js";
import { queryTerms } from "../../src/text/code-tokenizer.js";
import {
  adminQuery,
  freshSchema,
  runPostgres,
  sqliteAdapter,
  TEST_DATABASE_URL,
} from "../helpers/store-adapters.js";
import { document } from "../helpers/store-documents.js";

const opened: Store[] = [];
async function open(project: string, schema: string): Promise<PostgresStore> {
  const store = await PostgresStore.open(TEST_DATABASE_URL, { project, schema });
  opened.push(store);
  return store;
}

/** A schema the helper drops after the file (it registers the ones it makes). */
function schemaOf(): string {
  const schema = freshSchema();
  dropAfter.push(schema);
  return schema;
}
const dropAfter: string[] = [];

describe.runIf(runPostgres)("PostgresStore", () => {
  it("keeps projects in one database apart: no read or write of one reaches another's rows", async () => {
    const schema = schemaOf();
    const a = await open("team/a", schema);
    const b = await open("team/b", schema);
    const resourceA = await a.documents.ensureResource("/repo", "git");
    await a.documents.writeDocuments([
      {
        ...document(resourceA.id, "src/secret.ts", "function launchCodes() {}"),
        graph: {
          definitions: [
            {
              name: "launchCodes",
              kind: "function",
              startLine: 1,
              endLine: 1,
              parent: "",
              signature: "",
            },
          ],
          references: [{ name: "launchCodes", kind: "call", lines: [1] }],
          imports: [],
        },
      },
    ]);
    await a.history.writeHistory({
      resourceId: resourceA.id,
      add: [
        {
          sha: "a".repeat(40),
          parents: [],
          author: "A",
          email: "a@example.com",
          date: "2026-01-01T00:00:00Z",
          committedAt: 1,
          subject: "Add launch codes",
          body: "",
          changes: [{ path: "src/secret.ts", oldPath: null, added: 1, removed: 0 }],
        },
      ],
      remove: [],
      relink: false,
      readAt: "head",
    });
    const plan = await a.plans.createPlan("team/a", "Secret plan", null);
    await a.state.setMeta("ingest_version", "a");
    const [chunk] = await a.contexts.listChunkContextStates();
    if (!chunk) throw new Error("nothing stored");
    const [work] = await a.vectors.listUnembedded("e", 10);
    await a.vectors.putEmbeddings("e", 2, [
      { embedHash: work?.embedHash ?? "", vector: new Float32Array([1, 0]) },
    ]);
    const documentId = (await a.documents.listDocuments(resourceA.id))[0]?.id ?? -1;

    // The same resource id, paths and ids asked of the other project find nothing.
    const resourceB = await b.documents.ensureResource("/repo", "git");
    expect(resourceB.id).not.toBe(resourceA.id);
    expect((await b.documents.listResources()).map((r) => r.id)).toEqual([resourceB.id]);
    expect(await b.documents.searchText({ terms: ["launch"], limit: 10 })).toEqual([]);
    expect(await b.documents.getChunks([chunk.chunkId])).toEqual([]);
    expect(await b.documents.getDocumentChunks(resourceA.id, "src/secret.ts")).toEqual([]);
    expect(await b.documents.listDocuments(resourceA.id)).toEqual([]);
    expect(await b.contexts.listChunkContextStates()).toEqual([]);
    expect(await b.graph.findSymbols({ name: "launchCodes", limit: 10 })).toEqual([]);
    expect(await b.graph.findReferences("launchCodes")).toEqual([]);
    expect((await b.graph.loadGraph()).files).toEqual([]);
    expect(await b.graph.loadGraphReferencing(["launchCodes"])).toEqual([]);
    expect(await b.history.fileCommits(resourceA.id, "src/secret.ts", 10)).toEqual([]);
    expect(await b.history.filesOfMatchingCommits(resourceA.id, ["launch"], 30, 10)).toEqual([]);
    expect(await b.history.getCommits(resourceA.id, ["a".repeat(40)])).toEqual([]);
    expect(await b.plans.getPlan("team/a", plan.id)).toBeNull();
    expect(await b.state.getMeta("ingest_version")).toBeNull();
    expect(await b.vectors.searchVectors("e", new Float32Array([1, 0]), 5)).toEqual([]);
    expect(await b.vectors.embeddingCoverage("e")).toEqual({ embedded: 0, total: 0 });
    expect((await b.stats()).documents).toBe(0);
    expect(await b.state.takeLease("contexts", "b", 60_000)).toBe(true);
    expect(await a.state.takeLease("contexts", "a", 60_000)).toBe(true);

    // Writes through ids of the other project change nothing there.
    await b.documents.removeDocuments([documentId]);
    await b.documents.touchDocument(documentId, 1, 1);
    await b.contexts.updateChunkContexts([
      {
        chunkId: chunk.chunkId,
        chunkHash: chunk.chunkHash,
        context: "overwritten",
        contextKey: "k",
        contextStatus: "generated",
        embedHash: "x",
        search: { path: "", symbols: "", context: "overwritten", body: "" },
      },
    ]);
    await expect(
      b.plans.recordDecision("team/a", plan.id, {
        what: "x",
        why: "y",
        alternatives: [],
        outcome: null,
      }),
    ).rejects.toThrow(/no plan/);
    expect(await b.documents.removeResource(resourceA.id)).toBe(0);
    await b.vectors.pruneEmbeddings();
    expect(
      (await a.documents.searchText({ terms: ["launch"], limit: 10 })).map((h) => h.chunk.context),
    ).not.toContain("overwritten");
    expect((await a.documents.listDocuments(resourceA.id)).map((d) => [d.path, d.size])).toEqual([
      ["src/secret.ts", 25],
    ]);
    expect((await a.history.fileCommits(resourceA.id, "src/secret.ts", 10)).length).toBe(1);
    expect(await a.vectors.embeddingCoverage("e")).toEqual({ embedded: 1, total: 1 });
    expect((await a.stats()).documents).toBe(1);
  });

  it("ranks this repository's code as the SQLite store does: same chunks, same order, same scores (to 1e-5)", async () => {
    const src = join(import.meta.dirname, "../../src");
    const files = readdirSync(src, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
    const sqlite = await sqliteAdapter.place().open();
    const postgres = await open("local/ranking", schemaOf());
    for (const store of [sqlite, postgres]) {
      const resource = await store.documents.ensureResource("/repo", "git");
      // Ids differ between stores; the same resource id keeps ties comparable by path.
      await store.documents.writeDocuments(
        files.map((file) => document(resource.id, relative(src, file), readFileSync(file, "utf8"))),
      );
    }
    const questions = [
      "how does incremental indexing decide which files changed",
      "retry with exponential backoff and jitter",
      "mask the password of a connection URL",
      "BM25 field weights",
      "circuit breaker half-open after cool-down",
      "getHTTPResponse parseConfig",
    ];
    // SQLite's pruned search leaves out FTS5's shares of words held by most chunks (each
    // under 2.2e-6): scores agree to 1e-5, and only chunks that close may change places.
    const close = 1e-5;
    for (const question of questions) {
      const ranked = async (store: Store) =>
        (await store.documents.searchText({ terms: queryTerms(question), limit: 20 })).map(
          (hit) => ({
            chunk: `${hit.chunk.path}:${hit.chunk.startLine}`,
            score: hit.score,
          }),
        );
      const [server, file] = [await ranked(postgres), await ranked(sqlite)];
      expect(server.length, question).toBe(file.length);
      for (const [i, hit] of server.entries()) {
        expect(Math.abs(hit.score - (file[i]?.score ?? 0)), question).toBeLessThanOrEqual(close);
      }
      const last = file.at(-1)?.score ?? 0;
      const clearlyIn = (hits: typeof file) =>
        hits.filter((hit) => hit.score > last + close).map((hit) => hit.chunk);
      // The same chunks clear of the last one's score, each scored the same (to `close`):
      // with the scores position by position, the same order but for near-ties.
      expect(clearlyIn(server).sort(), question).toEqual(clearlyIn(file).sort());
      const scoreInFile = new Map(file.map((hit) => [hit.chunk, hit.score]));
      for (const hit of server) {
        const other = scoreInFile.get(hit.chunk);
        if (other !== undefined)
          expect(Math.abs(hit.score - other), question).toBeLessThanOrEqual(close);
      }
    }
    await sqlite.close();
  });

  it("lets one indexer of a project work at a time; another project's indexer does not wait", async () => {
    const schema = schemaOf();
    const first = await open("team/a", schema);
    const second = await open("team/a", schema);
    const other = await open("team/b", schema);
    const lock = await first.state.lockIndexing(1000);
    const started = Date.now();
    await expect(second.state.lockIndexing(300)).rejects.toThrow(IndexBusyError);
    await expect(second.state.lockIndexing(300)).rejects.toThrow(
      /project team\/a is being indexed by another process/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    const otherLock = await other.state.lockIndexing(300);
    // Readers never wait for it.
    expect(await second.documents.listResources()).toEqual([]);
    await lock.release();
    const next = await second.state.lockIndexing(300);
    await next.release();
    await otherLock.release();
  });

  it("says a server that is too old is too old, in one line", async () => {
    const error = await PostgresStore.open(TEST_DATABASE_URL, {
      project: "local/old",
      schema: schemaOf(),
      minimumServerVersion: 990000,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(
      /PostgreSQL 1\d\.\d+ is too old: ctx needs 99 or later/,
    );
    expect((error as Error).message).not.toContain("\n");
  });

  it("says pgvector is missing when the database lacks it and the user may not enable it", async () => {
    const suffix = freshSchema().slice("ctx_test_".length);
    const database = `ctx_novector_${suffix}`;
    const role = `ctx_limited_${suffix}`;
    await adminQuery(`CREATE ROLE ${role} LOGIN PASSWORD 'limited'`);
    await adminQuery(`CREATE DATABASE ${database}`);
    try {
      const url = new URL(TEST_DATABASE_URL);
      url.username = role;
      url.password = "limited";
      url.pathname = `/${database}`;
      const error = await PostgresStore.open(url.toString(), { project: "local/x" }).catch(
        (caught: unknown) => caught,
      );
      expect((error as Error).message).toBe(
        `${url.toString().replace(":limited@", ":***@")}: the pgvector extension is not enabled in this database and this user may not enable it: have the database owner run CREATE EXTENSION vector`,
      );
    } finally {
      await adminQuery(`DROP DATABASE ${database}`);
      await adminQuery(`DROP ROLE ${role}`);
    }
  });

  it("refuses a schema that holds another application's tables, leaving them alone", async () => {
    const schema = schemaOf();
    await adminQuery(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.customers (id int)`);
    await expect(open("local/x", schema)).rejects.toThrow(/holds tables that are not a ctx index/);
    const { rows } = await adminQuery(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1",
      [schema],
    );
    expect(rows).toEqual([{ table_name: "customers" }]);
  });
});

describe.runIf(runPostgres)("PostgresStore term rows", () => {
  // chunk_terms has no foreign key to chunks (checking it per term row slowed
  // indexing): every path that removes chunks must remove their term rows itself.
  it("leaves no term row of a removed chunk: rewritten files, removed files, removed roots", async () => {
    const schema = schemaOf();
    const store = await open("team/terms", schema);
    const kept = await store.documents.ensureResource("/kept", "folder");
    const gone = await store.documents.ensureResource("/gone", "folder");
    await store.documents.writeDocuments([
      document(kept.id, "src/a.ts", "function alphaBeta() { return gammaDelta; }"),
      document(kept.id, "src/b.ts", "function epsilonZeta() {}"),
      document(gone.id, "src/c.ts", "function etaTheta() {}"),
    ]);
    await store.documents.writeDocuments([
      document(kept.id, "src/a.ts", "function iotaKappa() {}"),
    ]);
    const [b] = (await store.documents.listDocuments(kept.id)).filter((d) => d.path === "src/b.ts");
    await store.documents.removeDocuments([b?.id ?? -1]);
    await store.documents.removeResource(gone.id);
    const orphans = await adminQuery(
      `SELECT count(*)::int AS n FROM ${schema}.chunk_terms t
       WHERE NOT EXISTS (SELECT 1 FROM ${schema}.chunks c WHERE c.id = t.chunk_id)`,
    );
    expect(orphans.rows).toEqual([{ n: 0 }]);
    const terms = (
      await adminQuery(`SELECT DISTINCT term FROM ${schema}.chunk_terms ORDER BY term`)
    ).rows.map((row: { term: string }) => row.term);
    expect(terms).toContain("iota");
    expect(terms).not.toContain("alpha");
    expect(terms).not.toContain("epsilon");
    expect(terms).not.toContain("eta");
  });
});

describe.runIf(runPostgres)("PostgresStore cleanup", () => {
  it("closes its stores and drops its schemas", async () => {
    for (const store of opened.splice(0)) await store.close();
    for (const schema of dropAfter.splice(0))
      await adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    expect(opened).toEqual([]);
  });
});
