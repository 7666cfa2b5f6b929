import { describe, expect, it } from "vitest";
import type { Store } from "../../../src/core/store.js";
import { STORE_ADAPTER_ROWS, type StoreAdapter } from "../../helpers/store-adapters.js";
import { document } from "../../helpers/store-documents.js";

const paths = (hits: { chunk: { path: string } }[]) => hits.map((hit) => hit.chunk.path);

describe.each(STORE_ADAPTER_ROWS)(
  "the VectorStore contract: chunk vectors per embedder (%s)",
  (_name, adapter: StoreAdapter) => {
    const fresh = async (): Promise<Store> => adapter.place().open();

    it("stores vectors per embedder and finds the nearest chunks, also under a path", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      await store.documents.writeDocuments([
        document(resource.id, "src/a.ts", "alpha one"),
        document(resource.id, "src/b.ts", "beta two"),
        document(resource.id, "lib/c.ts", "gamma three"),
      ]);
      const work = await store.vectors.listUnembedded("test-embedder", 10);
      expect(work.length).toBe(3);
      const vectorOf = (text: string) =>
        new Float32Array(
          text.includes("alpha") ? [1, 0, 0] : text.includes("beta") ? [0, 1, 0] : [0, 0, 1],
        );
      await store.vectors.putEmbeddings(
        "test-embedder",
        3,
        work.map((item) => ({ embedHash: item.embedHash, vector: vectorOf(item.text) })),
      );
      expect(await store.vectors.listUnembedded("test-embedder", 10)).toEqual([]);
      expect(await store.vectors.embeddingCoverage("test-embedder")).toEqual({
        embedded: 3,
        total: 3,
      });
      const near = await store.vectors.searchVectors(
        "test-embedder",
        new Float32Array([0.9, 0.1, 0]),
        2,
      );
      expect(paths(near.map((hit) => ({ chunk: hit.chunk })))).toEqual(["src/a.ts", "src/b.ts"]);
      expect(near[0]?.similarity).toBeGreaterThan(0.9);
      const under = await store.vectors.searchVectors(
        "test-embedder",
        new Float32Array([1, 0, 0]),
        5,
        ["lib"],
      );
      expect(under.map((hit) => hit.chunk.path)).toEqual(["lib/c.ts"]);
      await expect(
        store.vectors.putEmbeddings("test-embedder", 4, [
          { embedHash: "x", vector: new Float32Array(4) },
        ]),
      ).rejects.toThrow(/dimension/);

      await store.documents.writeDocuments([document(resource.id, "src/a.ts", "alpha changed")]);
      expect(await store.vectors.pruneEmbeddings()).toBe(1);
      expect(await store.vectors.embeddingCoverage("test-embedder")).toEqual({
        embedded: 2,
        total: 3,
      });
    });
  },
);
