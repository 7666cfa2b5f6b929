import { describe, expect, it } from "vitest";
import { graphFileKey } from "../../src/core/graph.js";
import type { DocumentToStore, Store } from "../../src/core/store.js";
import { withSearchText } from "../../src/ingest/search-text.js";
import { documentSearchTexts } from "../../src/ingest/stored-search-text.js";
import { STORE_ADAPTER_ROWS, type StoreAdapter } from "../helpers/store-adapters.js";
import { document } from "../helpers/store-documents.js";

const paths = (hits: { chunk: { path: string } }[]) => hits.map((hit) => hit.chunk.path);

describe.each(STORE_ADAPTER_ROWS)("the Store contract (%s)", (_name, adapter: StoreAdapter) => {
  const fresh = async (): Promise<Store> => adapter.place().open();

  it("writes, replaces and removes documents with their full-text entries", async () => {
    const store = await fresh();
    const resource = await store.ensureResource("/repo", "git");
    await store.writeDocuments([
      document(resource.id, "src/retry.ts", "function retryWithBackoff() {}"),
    ]);
    await store.writeDocuments([
      document(resource.id, "src/cache.ts", "function cacheLookup() {}"),
    ]);
    expect(paths(await store.searchText({ terms: ["backoff"], limit: 10 }))).toEqual([
      "src/retry.ts",
    ]);

    await store.writeDocuments([
      document(resource.id, "src/retry.ts", "function retryLinear() {}"),
    ]);
    expect(await store.searchText({ terms: ["backoff"], limit: 10 })).toEqual([]);
    expect((await store.searchText({ terms: ["linear"], limit: 10 })).length).toBe(1);

    const docs = await store.listDocuments(resource.id);
    await store.removeDocuments(
      docs.filter((doc) => doc.path === "src/cache.ts").map((doc) => doc.id),
    );
    expect(await store.searchText({ terms: ["cache"], limit: 10 })).toEqual([]);
    const stats = await store.stats();
    expect([stats.resources, stats.documents, stats.chunks]).toEqual([1, 1, 1]);
    expect(stats.contexts).toEqual({ structural: 1 });
  });

  it("leaves chunk text that no longer matches its checksum out of what it serves, and marks its document to be read again", async () => {
    const place = adapter.place();
    const store = await place.open();
    const resource = await store.ensureResource("/repo", "git");
    await store.writeDocuments([
      document(resource.id, "src/refund.ts", "function refundVoucher() { return 'refund'; }"),
      document(resource.id, "src/ship.ts", "function shipRefund() { return 'label'; }"),
    ]);
    const before = await store.listDocuments(resource.id);
    const chunkIds = (await store.searchText({ terms: ["refund"], limit: 10 })).map(
      (hit) => hit.chunk.id,
    );
    expect(chunkIds).toHaveLength(2);
    await place.damageChunkText("refundVoucher", "refundVoucheR");

    expect(paths(await store.searchText({ terms: ["refund"], limit: 10 }))).toEqual([
      "src/ship.ts",
    ]);
    expect((await store.getChunks(chunkIds)).map((chunk) => chunk.path)).toEqual(["src/ship.ts"]);
    expect(await store.getDocumentChunks(resource.id, "src/refund.ts")).toEqual([]);
    // A size and hash no file has: the next index run reads the file again.
    const states = await store.listDocuments(resource.id);
    const state = (docs: typeof states, path: string) => docs.find((doc) => doc.path === path);
    expect(state(states, "src/refund.ts")).toMatchObject({ size: -1, hash: "" });
    expect(state(states, "src/ship.ts")).toEqual(state(before, "src/ship.ts"));
  });

  it("stems as the index does: a query for retries finds retrying", async () => {
    const store = await fresh();
    const resource = await store.ensureResource("/repo", "git");
    await store.writeDocuments([
      document(resource.id, "src/a.ts", "keeps retrying the connection"),
      document(resource.id, "src/b.ts", "opens a connection"),
    ]);
    const hits = await store.searchText({ terms: ["retries"], limit: 10 });
    expect(paths(hits)).toEqual(["src/a.ts"]);
    expect(hits[0]?.score).toBeGreaterThan(0);
    // Ranked: the chunk with both words first.
    const both = await store.searchText({ terms: ["retry", "connection"], limit: 10 });
    expect(paths(both)).toEqual(["src/a.ts", "src/b.ts"]);
  });

  it("ranks after rewrites and compaction as a fresh index of the same documents does", async () => {
    const store = await fresh();
    const resource = await store.ensureResource("/repo", "git");
    const files = Array.from({ length: 300 }, (_, i) => `src/file${i}.ts`);
    await store.writeDocuments(
      files.map((path, i) => document(resource.id, path, `function oldName${i}() {}`)),
    );
    await store.writeDocuments(
      files
        .slice(0, 150)
        .map((path, i) => document(resource.id, path, `function newName${i}() {}`)),
    );
    await store.compact(documentSearchTexts);
    expect(await store.searchText({ terms: ["oldname7"], limit: 10 })).toEqual([]);
    expect((await store.stats()).documents).toBe(300);

    const clean = await fresh();
    const cleanResource = await clean.ensureResource("/repo", "git");
    await clean.writeDocuments(
      files.map((path, i) =>
        document(
          cleanResource.id,
          path,
          i < 150 ? `function newName${i}() {}` : `function oldName${i}() {}`,
        ),
      ),
    );
    const scores = async (from: Store) =>
      (await from.searchText({ terms: ["newname7", "oldname200", "oldname201"], limit: 5 }))
        .map((hit) => `${hit.chunk.path} ${hit.score.toFixed(9)}`)
        .sort();
    expect(await scores(store)).toEqual(await scores(clean));
  });

  it("writes a batch of documents all or nothing, keeping what was stored", async () => {
    const store = await fresh();
    const resource = await store.ensureResource("/repo", "git");
    await store.writeDocuments([document(resource.id, "src/kept.ts", "function keptBefore() {}")]);
    const batch = [
      document(resource.id, "src/kept.ts", "function replacedInBatch() {}"),
      document(resource.id, "src/added.ts", "function addedInBatch() {}"),
      // A resource that does not exist fails the whole batch.
      document("no-such-resource", "src/broken.ts", "function broken() {}"),
    ];
    await expect(store.writeDocuments(batch)).rejects.toThrow();
    expect((await store.listDocuments(resource.id)).map((doc) => doc.path)).toEqual([
      "src/kept.ts",
    ]);
    expect((await store.searchText({ terms: ["keptbefore"], limit: 10 })).length).toBe(1);
    expect(await store.searchText({ terms: ["replacedinbatch"], limit: 10 })).toEqual([]);
    expect((await store.stats()).chunks).toBe(1);
  });

  it("lists only the chunks whose context key differs from the one asked about", async () => {
    const store = await fresh();
    const resource = await store.ensureResource("/repo", "git");
    await store.writeDocuments([
      document(resource.id, "src/a.ts", "function alpha() {}"),
      document(resource.id, "src/b.ts", "function beta() {}"),
    ]);
    const [first] = await store.listChunkContextStates();
    if (!first) throw new Error("no chunks stored");
    await store.updateChunkContexts([
      {
        chunkId: first.chunkId,
        chunkHash: first.chunkHash,
        context: "written by a model",
        contextKey: "model-key",
        contextStatus: "generated",
        embedHash: "e",
        search: { path: "src a ts", symbols: "", context: "written model", body: "alpha" },
      },
    ]);
    expect((await store.listChunkContextStates()).map((state) => state.path)).toEqual([
      "src/a.ts",
      "src/b.ts",
    ]);
    const structural = await store.listChunkContextStates("structural:v1");
    expect(structural.map((state) => [state.path, state.contextKey])).toEqual([
      ["src/a.ts", "model-key"],
    ]);
    expect((await store.listChunkContextStates(null)).length).toBe(2);
    expect(
      (await store.searchText({ terms: ["model"], limit: 5 })).map((h) => h.chunk.context),
    ).toEqual(["written by a model"]);
    expect((await store.stats()).contexts).toEqual({ generated: 1, structural: 1 });
  });

  it("leaves a chunk alone when a context arrives for text it no longer holds", async () => {
    const store = await fresh();
    const resource = await store.ensureResource("/repo", "git");
    await store.writeDocuments([document(resource.id, "src/a.ts", "function alpha() {}")]);
    const [before] = await store.listChunkContextStates();
    if (!before) throw new Error("no chunks stored");
    await store.writeDocuments([document(resource.id, "src/a.ts", "function gamma() {}")]);
    const [after] = await store.listChunkContextStates();
    await store.updateChunkContexts([
      {
        chunkId: before.chunkId,
        chunkHash: before.chunkHash,
        context: "about alpha",
        contextKey: "model-key",
        contextStatus: "generated",
        embedHash: "e",
        search: { path: "src a ts", symbols: "", context: "about alpha", body: "alpha" },
      },
    ]);
    expect(await store.searchText({ terms: ["alpha"], limit: 5 })).toEqual([]);
    const [chunk] = await store.getChunks([after?.chunkId ?? -1]);
    expect(chunk?.content).toBe("function gamma() {}");
    expect(chunk?.contextStatus).toBe("structural");
    expect((await store.searchText({ terms: ["gamma"], limit: 5 })).length).toBe(1);
  });

  it("reads chunks by id, in id order, leaving out ids it does not hold, however many are asked", async () => {
    const store = await fresh();
    const resource = await store.ensureResource("/repo", "git");
    const paths = Array.from({ length: 250 }, (_, i) => `src/f${String(i).padStart(3, "0")}.ts`);
    await store.writeDocuments(
      paths.map((path, i) => document(resource.id, path, `function f${i}() {}`)),
    );
    const ids: number[] = [];
    for (const path of paths) {
      for (const chunk of await store.getDocumentChunks(resource.id, path)) ids.push(chunk.id);
    }
    const ascending = [...ids].sort((a, b) => a - b);
    const missing = (ascending.at(-1) ?? 0) + 1000;
    // A few ids, and more than a query's hits: both come back alike.
    for (const asked of [ids.slice(0, 3), ids]) {
      const reversed = [missing, ...[...asked].reverse()];
      const found = await store.getChunks(reversed);
      expect(found.map((chunk) => chunk.id)).toEqual([...asked].sort((a, b) => a - b));
    }
    const [first] = await store.getChunks([ids[7] as number]);
    expect(first?.content).toBe("function f7() {}");
  });

  it("reads the graph rows written after a generation, and those of the files using given names", async () => {
    const store = await fresh();
    const resource = await store.ensureResource("/repo", "git");
    const withGraph = (path: string, defines: string, uses: string): DocumentToStore => ({
      ...document(resource.id, path, `function ${defines}() { ${uses}(); }`),
      graph: {
        definitions: [
          { name: defines, kind: "function", startLine: 1, endLine: 1, parent: "", signature: "" },
        ],
        references: [{ name: uses, kind: "call", lines: [1] }],
        imports: [],
      },
    });
    await store.writeDocuments([
      withGraph("src/a.ts", "alpha", "beta"),
      withGraph("src/b.ts", "beta", "alpha"),
    ]);
    const before = await store.graphGeneration();
    await store.writeDocuments([withGraph("src/c.ts", "gamma", "beta")]);
    await store.writeDocuments([withGraph("src/a.ts", "alpha", "gamma")]);
    const since = await store.loadGraphSince(before, 10);
    expect(since.generation).toBe(await store.graphGeneration());
    expect(since.files.map((file) => file.path)).toEqual(["src/a.ts", "src/b.ts", "src/c.ts"]);
    expect(since.written?.map((file) => [file.path, file.references.map((r) => r.name)])).toEqual([
      ["src/a.ts", ["gamma"]],
      ["src/c.ts", ["beta"]],
    ]);
    expect((await store.loadGraphSince(since.generation, 10)).written).toEqual([]);
    expect((await store.loadGraphSince(before, 1)).written).toBeNull();
    const users = await store.loadGraphReferencing(["beta", "delta"]);
    expect(users.map((file) => file.path)).toEqual(["src/c.ts"]);
    expect(users[0]?.definitions.map((d) => d.name)).toEqual(["gamma"]);
    const all = (await store.loadGraph()).files;
    expect(users[0]).toEqual(all.find((file) => file.path === "src/c.ts"));
    expect((await store.stats()).graph).toEqual({
      definitions: 3,
      references: 3,
      imports: 0,
      orphans: 0,
    });
  });

  it("keeps whether a call was made on something, and shows either as a call", async () => {
    const store = await fresh();
    const resource = await store.ensureResource("/repo", "git");
    const references = [
      { name: "run", kind: "call" as const, lines: [1] },
      { name: "run", kind: "call" as const, lines: [2, 3], member: true },
    ];
    await store.writeDocuments([
      {
        ...document(resource.id, "src/jobs.ts", "run();\njob.run();\nthis.run();"),
        graph: {
          definitions: [
            { name: "run", kind: "function", startLine: 1, endLine: 1, parent: "", signature: "" },
          ],
          references,
          imports: [],
        },
      },
    ]);
    expect((await store.loadGraph()).files[0]?.references).toEqual(references);
    expect(await store.findReferences("run")).toEqual([
      { path: "src/jobs.ts", line: 1, kind: "call" },
      { path: "src/jobs.ts", line: 2, kind: "call" },
      { path: "src/jobs.ts", line: 3, kind: "call" },
    ]);
    // `run(); job.run();` on one line: one call there.
    await store.writeDocuments([
      {
        ...document(resource.id, "src/jobs.ts", "run(); job.run();"),
        graph: {
          definitions: [
            { name: "run", kind: "function", startLine: 1, endLine: 1, parent: "", signature: "" },
          ],
          references: [
            { name: "run", kind: "call", lines: [1] },
            { name: "run", kind: "call", lines: [1], member: true },
          ],
          imports: [],
        },
      },
    ]);
    expect(await store.findReferences("run")).toEqual([
      { path: "src/jobs.ts", line: 1, kind: "call" },
    ]);
  });

  it("finds symbols and the references that resolve to a definition through imports", async () => {
    const store = await fresh();
    const resource = await store.ensureResource("/repo", "git");
    const file = (path: string, graph: DocumentToStore["graph"]): DocumentToStore => ({
      ...document(resource.id, path, `// ${path}`),
      graph,
    });
    await store.writeDocuments([
      file("src/util.ts", {
        definitions: [
          {
            name: "parseConfig",
            kind: "function",
            startLine: 1,
            endLine: 3,
            parent: "",
            signature: "function parseConfig()",
          },
        ],
        references: [],
        imports: [],
      }),
      file("src/other.ts", {
        definitions: [
          {
            name: "parseConfig",
            kind: "function",
            startLine: 5,
            endLine: 6,
            parent: "",
            signature: "",
          },
        ],
        references: [{ name: "parseConfig", kind: "call", lines: [9] }],
        imports: [],
      }),
      file("src/app.ts", {
        definitions: [],
        references: [{ name: "parseConfig", kind: "call", lines: [4, 8] }],
        imports: [
          {
            specifier: "./util",
            line: 1,
            names: ["parseConfig"],
            targets: [{ path: "src/util.ts", match: "exact" }],
            reexport: false,
          },
        ],
      }),
    ]);
    expect(
      (await store.findSymbols({ name: "parseConfig", limit: 10 })).map((s) => [
        s.path,
        s.startLine,
      ]),
    ).toEqual([
      ["src/other.ts", 5],
      ["src/util.ts", 1],
    ]);
    expect((await store.findSymbols({ name: "PARSECONFIG", limit: 10 })).length).toBe(2);
    expect(
      (await store.findSymbols({ name: "parse*", path: "src/util.ts", limit: 10 })).map(
        (s) => s.signature,
      ),
    ).toEqual(["function parseConfig()"]);
    expect(await store.findReferences("parseConfig", "src/util.ts")).toEqual([
      { path: "src/app.ts", line: 4, kind: "call" },
      { path: "src/app.ts", line: 8, kind: "call" },
    ]);
    expect((await store.findReferences("parseConfig")).length).toBe(3);
  });

  it("keeps each definition's doc comment, replaced with its file", async () => {
    const store = await fresh();
    const resource = await store.ensureResource("/repo", "git");
    const documented = (doc: string): DocumentToStore => ({
      ...document(resource.id, "src/refunds.ts", "function settle() {}"),
      graph: {
        definitions: [
          {
            name: "settle",
            kind: "function",
            startLine: 1,
            endLine: 1,
            parent: "",
            signature: "",
            doc,
          },
          { name: "helper", kind: "function", startLine: 2, endLine: 2, parent: "", signature: "" },
        ],
        references: [],
        imports: [],
      },
    });
    const docs = async () =>
      Object.fromEntries(
        (await store.findSymbols({ name: "*", limit: 10 })).map((d) => [d.name, d.doc]),
      );
    await store.writeDocuments([documented("Pays back what a customer owes.")]);
    expect(await docs()).toEqual({ settle: "Pays back what a customer owes.", helper: "" });
    await store.writeDocuments([documented("Closes the books.")]);
    expect(await docs()).toEqual({ settle: "Closes the books.", helper: "" });
  });

  it("gives back the graph rows a caller holds where the stored file has the same hash", async () => {
    const store = await fresh();
    const resource = await store.ensureResource("/repo", "git");
    const defining = (path: string, name: string): DocumentToStore => ({
      ...document(resource.id, path, `function ${name}() {}`),
      graph: {
        definitions: [
          { name, kind: "function", startLine: 1, endLine: 1, parent: "", signature: "" },
        ],
        references: [],
        imports: [],
      },
    });
    const a = defining("src/a.ts", "alpha");
    const b = defining("src/b.ts", "beta");
    await store.writeDocuments([a, b]);
    const stored = (await store.loadGraph()).files;
    const held = (doc: DocumentToStore, name: string) => ({
      hash: doc.hash,
      record: {
        resourceId: doc.resourceId,
        path: doc.path,
        language: doc.language,
        definitions: [
          { name, kind: "function" as const, startLine: 1, endLine: 1, parent: "", signature: "" },
        ],
        references: [],
        imports: [],
      },
    });
    const known = new Map([
      [graphFileKey(a), held(a, "alphaHeld")],
      [graphFileKey(b), { ...held(b, "betaHeld"), hash: "other content" }],
    ]);
    const loaded = await store.loadGraph(known);
    expect(loaded.generation).toBe(await store.graphGeneration());
    expect(loaded.files.map((file) => file.definitions.map((d) => d.name))).toEqual([
      ["alphaHeld"],
      ["beta"],
    ]);
    expect(loaded.files[1]).toEqual(stored[1]);
    const removed = (await store.listDocuments(resource.id)).find((d) => d.path === "src/a.ts");
    await store.removeDocuments([removed?.id ?? -1]);
    expect((await store.loadGraph(known)).files.map((file) => file.path)).toEqual(["src/b.ts"]);
  });

  it("keeps its data across reopening and records its roots", async () => {
    const place = adapter.place();
    const first = await place.open();
    const resource = await first.ensureResource("/repo", "folder");
    await first.writeDocuments([document(resource.id, "a.ts", "const answer = 42;")]);
    await first.setMeta("ingest_version", "8");
    await first.close();

    const second = await place.open({ create: false });
    expect((await second.listResources()).map((r) => r.root)).toEqual(["/repo"]);
    expect((await second.ensureResource("/repo", "folder")).id).toBe(resource.id);
    expect((await second.searchText({ terms: ["answer"], limit: 5 })).length).toBe(1);
    expect(await second.getMeta("ingest_version")).toBe("8");
    expect(await second.getMeta("nothing")).toBeNull();
  });

  it("moves a root, refusing one another resource has, and removes a resource with its documents", async () => {
    const store = await fresh();
    const a = await store.ensureResource("/a", "git");
    const b = await store.ensureResource("/b", "folder");
    await store.writeDocuments([document(a.id, "x.ts", "alpha"), document(a.id, "y.ts", "beta")]);
    expect(await store.moveResource(a.id, "/b")).toBe(false);
    expect(await store.moveResource(a.id, "/a2")).toBe(true);
    expect((await store.listResources()).map((r) => r.root).sort()).toEqual(["/a2", "/b"]);
    await store.recordRun(b.id, { ...b.skipped, binary: 3 }, "2026-01-01T00:00:00.000Z");
    const recorded = (await store.listResources()).find((r) => r.id === b.id);
    expect(recorded?.lastIndexedAt).toBe("2026-01-01T00:00:00.000Z");
    expect(recorded?.skipped.binary).toBe(3);
    expect(await store.removeResource(a.id)).toBe(2);
    expect(await store.searchText({ terms: ["alpha"], limit: 5 })).toEqual([]);
    expect((await store.stats()).documents).toBe(0);
  });

  it("keeps the skipped files a run named, with their reason and size, until the next run", async () => {
    const store = await fresh();
    const resource = await store.ensureResource("/repo", "git");
    expect(resource.skippedFiles).toEqual([]);
    const named = [
      { reason: "too-large" as const, path: "uv.lock", bytes: 1_234_567 },
      { reason: "agent-config" as const, path: ".mcp.json", bytes: null },
      { reason: "ignored" as const, path: "build/", bytes: null },
    ];
    const secret = [{ path: ".env", found: "file name" }];
    const counts = {
      ...resource.skipped,
      "too-large": 1,
      "agent-config": 1,
      ignored: 40,
      secret: 1,
    };
    await store.recordRun(resource.id, counts, "2026-01-01T00:00:00.000Z", secret, named);
    const [recorded] = await store.listResources();
    expect(recorded?.skippedFiles).toEqual(named);
    expect(recorded?.secretFiles).toEqual(secret);
    expect(recorded?.skipped).toEqual(counts);
    // A run that names nothing leaves nothing named from before.
    await store.recordRun(resource.id, resource.skipped, "2026-01-02T00:00:00.000Z");
    expect((await store.listResources())[0]?.skippedFiles).toEqual([]);
  });

  it("reads a document's chunks in line order, all of them or the first few", async () => {
    const store = await fresh();
    const resource = await store.ensureResource("/repo", "git");
    const parts = ["import { a } from './a';", "function first() {}", "function second() {}"];
    const one = document(resource.id, "src/parts.ts", parts.join("\n"));
    await store.writeDocuments([
      {
        ...one,
        chunks: withSearchText(
          {
            path: "src/parts.ts",
            language: "typescript",
            text: parts.join("\n"),
            contexts: "structural",
          },
          parts.map((content, index) => ({
            startLine: index + 1,
            endLine: index + 1,
            kind: "code" as const,
            symbol: "",
            parent: null,
            content,
            header: "",
            defines: [],
            tokens: 5,
          })),
        ),
      },
    ]);
    const lines = (chunks: { startLine: number }[]) => chunks.map((chunk) => chunk.startLine);
    expect(lines(await store.getDocumentChunks(resource.id, "src/parts.ts"))).toEqual([1, 2, 3]);
    expect(lines(await store.getDocumentChunks(resource.id, "src/parts.ts", 1))).toEqual([1]);
    expect(lines(await store.getDocumentChunks(resource.id, "src/parts.ts", 2))).toEqual([1, 2]);
    expect(await store.getDocumentChunks(resource.id, "src/missing.ts", 1)).toEqual([]);
  });

  it("filters by path prefix", async () => {
    const store = await fresh();
    const resource = await store.ensureResource("/repo", "folder");
    await store.writeDocuments([document(resource.id, "src/a.ts", "retry here")]);
    await store.writeDocuments([document(resource.id, "srcx/b.ts", "retry there")]);
    await store.writeDocuments([document(resource.id, "test/c.ts", "retry test")]);
    const hits = await store.searchText({ terms: ["retry"], limit: 10, pathPrefixes: ["src/"] });
    expect(paths(hits)).toEqual(["src/a.ts"]);
  });
});
