import { describe, expect, it } from "vitest";
import { IndexMissingError, SchemaTooNewError } from "../../src/core/errors.js";
import type { DocumentToStore, Store } from "../../src/core/store.js";
import { STORE_ADAPTER_ROWS, type StoreAdapter } from "../helpers/store-adapters.js";
import { document } from "../helpers/store-documents.js";

const paths = (hits: { chunk: { path: string } }[]) => hits.map((hit) => hit.chunk.path);

describe.each(STORE_ADAPTER_ROWS)(
  "the Store contract: leases, projects, plans, vectors, versions (%s)",
  (_name, adapter: StoreAdapter) => {
    const fresh = async (): Promise<Store> => adapter.place().open();

    it("finds a name's uses exactly, whatever its characters or case, and forgets them with their file", async () => {
      const store = await fresh();
      const resource = await store.ensureResource("/repo", "git");
      const using = (path: string, names: string[]): DocumentToStore => ({
        ...document(resource.id, path, names.join("\n")),
        graph: {
          definitions: [],
          references: names.map((name, index) => ({ name, kind: "call", lines: [index + 1] })),
          imports: [],
        },
      });
      const uses = async (name: string) =>
        (await store.findReferences(name)).map((r) => `${r.path}:${r.line}`);
      await store.writeDocuments([
        using("lib/a.rb", ["empty?", "Größe", "Vector3", "$el"]),
        using("lib/b.rb", ["empty", "größe", "vector3", "el"]),
      ]);
      expect(await uses("empty?")).toEqual(["lib/a.rb:1"]);
      expect(await uses("empty")).toEqual(["lib/b.rb:1"]);
      expect(await uses("Größe")).toEqual(["lib/a.rb:2"]);
      expect(await uses("Vector3")).toEqual(["lib/a.rb:3"]);
      expect(await uses("vector3")).toEqual(["lib/b.rb:3"]);
      expect(await uses("$el")).toEqual(["lib/a.rb:4"]);
      expect(await uses("missing")).toEqual([]);
      // Rewritten without the name, and removed: the name leads nowhere.
      await store.writeDocuments([using("lib/a.rb", ["other"])]);
      expect(await uses("Vector3")).toEqual([]);
      expect(await uses("other")).toEqual(["lib/a.rb:1"]);
      const [b] = (await store.listDocuments(resource.id)).filter((d) => d.path === "lib/b.rb");
      await store.removeDocuments([b?.id ?? -1]);
      expect(await uses("vector3")).toEqual([]);
      expect((await store.stats()).graph).toEqual({
        definitions: 0,
        references: 1,
        imports: 0,
        orphans: 0,
      });
    });

    it("gives a lease to one holder at a time, and to another once it expired or was released", async () => {
      const store = await fresh();
      expect(await store.takeLease("contexts", "first", 60_000)).toBe(true);
      expect(await store.takeLease("contexts", "second", 60_000)).toBe(false);
      expect(await store.takeLease("contexts", "first", 60_000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await store.takeLease("contexts", "second", 10)).toBe(true);
      await store.releaseLease("contexts", "first");
      expect(await store.takeLease("contexts", "first", 60_000)).toBe(false);
      await store.releaseLease("contexts", "second");
      expect(await store.takeLease("contexts", "first", 60_000)).toBe(true);
    });

    it("keeps project strategy overrides, breakers and cached contexts", async () => {
      const store = await fresh();
      expect(await store.getProject("local/app")).toEqual({
        name: "local/app",
        enabledStrategies: null,
        updatedAt: null,
      });
      await store.setProjectStrategies("local/app", ["simple-keyword"]);
      expect((await store.getProject("local/app")).enabledStrategies).toEqual(["simple-keyword"]);
      await store.setProjectStrategies("local/app", null);
      expect((await store.getProject("local/app")).enabledStrategies).toBeNull();

      await store.saveBreaker("local/app", { strategy: "arce", failures: 2, openedAt: null });
      await store.saveBreaker("local/app", { strategy: "arce", failures: 3, openedAt: 1234 });
      expect(await store.listBreakers("local/app")).toEqual([
        { strategy: "arce", failures: 3, openedAt: 1234 },
      ]);
      expect(await store.listBreakers("local/other")).toEqual([]);

      await store.putCachedContexts([
        { key: "k1", context: "first", generator: "g", model: "m" },
        { key: "k2", context: "second", generator: "g", model: "m" },
      ]);
      expect(await store.getCachedContexts(["k1", "k2", "k3"])).toEqual(
        new Map([
          ["k1", "first"],
          ["k2", "second"],
        ]),
      );
    });

    it("records plans and decisions, closed plans refusing more", async () => {
      const store = await fresh();
      const parent = await store.createPlan("local/app", "Rework the cache", null);
      const child = await store.createPlan("local/app", "Pick an eviction policy", parent.id);
      const decision = await store.recordDecision("local/app", child.id, {
        what: "LRU",
        why: "hot keys stay",
        alternatives: ["FIFO"],
        outcome: null,
      });
      expect(decision.planId).toBe(child.id);
      const closed = await store.closePlan("local/app", child.id, "shipped");
      expect([closed.status, closed.outcome, closed.decisions.map((d) => d.what)]).toEqual([
        "closed",
        "shipped",
        ["LRU"],
      ]);
      await expect(
        store.recordDecision("local/app", child.id, {
          what: "x",
          why: "y",
          alternatives: [],
          outcome: null,
        }),
      ).rejects.toThrow(/is closed/);
      expect((await store.listPlans("local/app", { openOnly: true })).map((p) => p.title)).toEqual([
        "Rework the cache",
      ]);
      expect((await store.listPlans("local/app", { openOnly: false })).map((p) => p.id)).toEqual([
        child.id,
        parent.id,
      ]);
      expect(await store.getPlan("local/other", parent.id)).toBeNull();
      expect(await store.getPlan("local/app", "nonsense")).toBeNull();
      expect((await store.getPlan("local/app", child.id))?.parentId).toBe(parent.id);
    });

    it("stores vectors per embedder and finds the nearest chunks, also under a path", async () => {
      const store = await fresh();
      const resource = await store.ensureResource("/repo", "git");
      await store.writeDocuments([
        document(resource.id, "src/a.ts", "alpha one"),
        document(resource.id, "src/b.ts", "beta two"),
        document(resource.id, "lib/c.ts", "gamma three"),
      ]);
      const work = await store.listUnembedded("test-embedder", 10);
      expect(work.length).toBe(3);
      const vectorOf = (text: string) =>
        new Float32Array(
          text.includes("alpha") ? [1, 0, 0] : text.includes("beta") ? [0, 1, 0] : [0, 0, 1],
        );
      await store.putEmbeddings(
        "test-embedder",
        3,
        work.map((item) => ({ embedHash: item.embedHash, vector: vectorOf(item.text) })),
      );
      expect(await store.listUnembedded("test-embedder", 10)).toEqual([]);
      expect(await store.embeddingCoverage("test-embedder")).toEqual({ embedded: 3, total: 3 });
      const near = await store.searchVectors("test-embedder", new Float32Array([0.9, 0.1, 0]), 2);
      expect(paths(near.map((hit) => ({ chunk: hit.chunk })))).toEqual(["src/a.ts", "src/b.ts"]);
      expect(near[0]?.similarity).toBeGreaterThan(0.9);
      const under = await store.searchVectors("test-embedder", new Float32Array([1, 0, 0]), 5, [
        "lib",
      ]);
      expect(under.map((hit) => hit.chunk.path)).toEqual(["lib/c.ts"]);
      await expect(
        store.putEmbeddings("test-embedder", 4, [{ embedHash: "x", vector: new Float32Array(4) }]),
      ).rejects.toThrow(/dimension/);

      await store.writeDocuments([document(resource.id, "src/a.ts", "alpha changed")]);
      expect(await store.pruneEmbeddings()).toBe(1);
      expect(await store.embeddingCoverage("test-embedder")).toEqual({ embedded: 2, total: 3 });
    });

    it("refuses a missing index when asked not to create one", async () => {
      await expect(adapter.place().open({ create: false })).rejects.toThrow(IndexMissingError);
    });

    it("refuses an index written by a newer version and leaves it as it was", async () => {
      const place = adapter.place();
      const store = await place.open();
      const resource = await store.ensureResource("/repo", "git");
      await store.writeDocuments([document(resource.id, "a.ts", "kept")]);
      const version = (await store.stats()).schemaVersion;
      await store.close();
      await place.setSchemaVersion(version + 1);
      await expect(place.open({ create: false })).rejects.toThrow(SchemaTooNewError);
      await place.setSchemaVersion(version);
      const again = await place.open({ create: false });
      expect((await again.searchText({ terms: ["kept"], limit: 5 })).length).toBe(1);
    });
  },
);
