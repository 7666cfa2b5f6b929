import { describe, expect, it } from "vitest";
import type { Store } from "../../../src/core/store.js";
import { STORE_ADAPTER_ROWS, type StoreAdapter } from "../../helpers/store-adapters.js";
import { document } from "../../helpers/store-documents.js";

describe.each(STORE_ADAPTER_ROWS)(
  "the ContextStore contract: chunk contexts and the context cache (%s)",
  (_name, adapter: StoreAdapter) => {
    const fresh = async (): Promise<Store> => adapter.place().open();

    it("lists only the chunks whose context key differs from the one asked about", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      await store.documents.writeDocuments([
        document(resource.id, "src/a.ts", "function alpha() {}"),
        document(resource.id, "src/b.ts", "function beta() {}"),
      ]);
      const [first] = await store.contexts.listChunkContextStates();
      if (!first) throw new Error("no chunks stored");
      await store.contexts.updateChunkContexts([
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
      expect((await store.contexts.listChunkContextStates()).map((state) => state.path)).toEqual([
        "src/a.ts",
        "src/b.ts",
      ]);
      const structural = await store.contexts.listChunkContextStates("structural:v1");
      expect(structural.map((state) => [state.path, state.contextKey])).toEqual([
        ["src/a.ts", "model-key"],
      ]);
      expect((await store.contexts.listChunkContextStates(null)).length).toBe(2);
      expect(
        (await store.documents.searchText({ terms: ["model"], limit: 5 })).map(
          (h) => h.chunk.context,
        ),
      ).toEqual(["written by a model"]);
      expect((await store.stats()).contexts).toEqual({ generated: 1, structural: 1 });
    });

    it("leaves a chunk alone when a context arrives for text it no longer holds", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      await store.documents.writeDocuments([
        document(resource.id, "src/a.ts", "function alpha() {}"),
      ]);
      const [before] = await store.contexts.listChunkContextStates();
      if (!before) throw new Error("no chunks stored");
      await store.documents.writeDocuments([
        document(resource.id, "src/a.ts", "function gamma() {}"),
      ]);
      const [after] = await store.contexts.listChunkContextStates();
      await store.contexts.updateChunkContexts([
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
      expect(await store.documents.searchText({ terms: ["alpha"], limit: 5 })).toEqual([]);
      const [chunk] = await store.documents.getChunks([after?.chunkId ?? -1]);
      expect(chunk?.content).toBe("function gamma() {}");
      expect(chunk?.contextStatus).toBe("structural");
      expect((await store.documents.searchText({ terms: ["gamma"], limit: 5 })).length).toBe(1);
    });
  },
);
