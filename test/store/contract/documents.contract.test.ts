import { describe, expect, it } from "vitest";
import type { Store } from "../../../src/core/store.js";
import { withSearchText } from "../../../src/ingest/search-text.js";
import { documentSearchTexts } from "../../../src/ingest/stored-search-text.js";
import { STORE_ADAPTER_ROWS, type StoreAdapter } from "../../helpers/store-adapters.js";
import { document } from "../../helpers/store-documents.js";

const paths = (hits: { chunk: { path: string } }[]) => hits.map((hit) => hit.chunk.path);

describe.each(STORE_ADAPTER_ROWS)(
  "the DocumentStore contract: resources, documents, chunks and their full-text search (%s)",
  (_name, adapter: StoreAdapter) => {
    const fresh = async (): Promise<Store> => adapter.place().open();

    it("writes, replaces and removes documents with their full-text entries", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      await store.documents.writeDocuments([
        document(resource.id, "src/retry.ts", "function retryWithBackoff() {}"),
      ]);
      await store.documents.writeDocuments([
        document(resource.id, "src/cache.ts", "function cacheLookup() {}"),
      ]);
      expect(paths(await store.documents.searchText({ terms: ["backoff"], limit: 10 }))).toEqual([
        "src/retry.ts",
      ]);

      await store.documents.writeDocuments([
        document(resource.id, "src/retry.ts", "function retryLinear() {}"),
      ]);
      expect(await store.documents.searchText({ terms: ["backoff"], limit: 10 })).toEqual([]);
      expect((await store.documents.searchText({ terms: ["linear"], limit: 10 })).length).toBe(1);

      const docs = await store.documents.listDocuments(resource.id);
      await store.documents.removeDocuments(
        docs.filter((doc) => doc.path === "src/cache.ts").map((doc) => doc.id),
      );
      expect(await store.documents.searchText({ terms: ["cache"], limit: 10 })).toEqual([]);
      const stats = await store.stats();
      expect([stats.resources, stats.documents, stats.chunks]).toEqual([1, 1, 1]);
      expect(stats.contexts).toEqual({ structural: 1 });
    });

    it("leaves chunk text that no longer matches its checksum out of what it serves, and marks its document to be read again", async () => {
      const place = adapter.place();
      const store = await place.open();
      const resource = await store.documents.ensureResource("/repo", "git");
      await store.documents.writeDocuments([
        document(resource.id, "src/refund.ts", "function refundVoucher() { return 'refund'; }"),
        document(resource.id, "src/ship.ts", "function shipRefund() { return 'label'; }"),
      ]);
      const before = await store.documents.listDocuments(resource.id);
      const chunkIds = (await store.documents.searchText({ terms: ["refund"], limit: 10 })).map(
        (hit) => hit.chunk.id,
      );
      expect(chunkIds).toHaveLength(2);
      await place.damageChunkText("refundVoucher", "refundVoucheR");

      expect(paths(await store.documents.searchText({ terms: ["refund"], limit: 10 }))).toEqual([
        "src/ship.ts",
      ]);
      expect((await store.documents.getChunks(chunkIds)).map((chunk) => chunk.path)).toEqual([
        "src/ship.ts",
      ]);
      expect(await store.documents.getDocumentChunks(resource.id, "src/refund.ts")).toEqual([]);
      // A size and hash no file has: the next index run reads the file again.
      const states = await store.documents.listDocuments(resource.id);
      const state = (docs: typeof states, path: string) => docs.find((doc) => doc.path === path);
      expect(state(states, "src/refund.ts")).toMatchObject({ size: -1, hash: "" });
      expect(state(states, "src/ship.ts")).toEqual(state(before, "src/ship.ts"));
    });

    it("stems as the index does: a query for retries finds retrying", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      await store.documents.writeDocuments([
        document(resource.id, "src/a.ts", "keeps retrying the connection"),
        document(resource.id, "src/b.ts", "opens a connection"),
      ]);
      const hits = await store.documents.searchText({ terms: ["retries"], limit: 10 });
      expect(paths(hits)).toEqual(["src/a.ts"]);
      expect(hits[0]?.score).toBeGreaterThan(0);
      // Ranked: the chunk with both words first.
      const both = await store.documents.searchText({ terms: ["retry", "connection"], limit: 10 });
      expect(paths(both)).toEqual(["src/a.ts", "src/b.ts"]);
    });

    it("ranks after rewrites and compaction as a fresh index of the same documents does", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      const files = Array.from({ length: 300 }, (_, i) => `src/file${i}.ts`);
      await store.documents.writeDocuments(
        files.map((path, i) => document(resource.id, path, `function oldName${i}() {}`)),
      );
      await store.documents.writeDocuments(
        files
          .slice(0, 150)
          .map((path, i) => document(resource.id, path, `function newName${i}() {}`)),
      );
      await store.documents.compact(documentSearchTexts);
      expect(await store.documents.searchText({ terms: ["oldname7"], limit: 10 })).toEqual([]);
      expect((await store.stats()).documents).toBe(300);

      const clean = await fresh();
      const cleanResource = await clean.documents.ensureResource("/repo", "git");
      await clean.documents.writeDocuments(
        files.map((path, i) =>
          document(
            cleanResource.id,
            path,
            i < 150 ? `function newName${i}() {}` : `function oldName${i}() {}`,
          ),
        ),
      );
      const scores = async (from: Store) =>
        (
          await from.documents.searchText({
            terms: ["newname7", "oldname200", "oldname201"],
            limit: 5,
          })
        )
          .map((hit) => `${hit.chunk.path} ${hit.score.toFixed(9)}`)
          .sort();
      expect(await scores(store)).toEqual(await scores(clean));
    });

    it("writes a batch of documents all or nothing, keeping what was stored", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      await store.documents.writeDocuments([
        document(resource.id, "src/kept.ts", "function keptBefore() {}"),
      ]);
      const batch = [
        document(resource.id, "src/kept.ts", "function replacedInBatch() {}"),
        document(resource.id, "src/added.ts", "function addedInBatch() {}"),
        // A resource that does not exist fails the whole batch.
        document("no-such-resource", "src/broken.ts", "function broken() {}"),
      ];
      await expect(store.documents.writeDocuments(batch)).rejects.toThrow();
      expect((await store.documents.listDocuments(resource.id)).map((doc) => doc.path)).toEqual([
        "src/kept.ts",
      ]);
      expect((await store.documents.searchText({ terms: ["keptbefore"], limit: 10 })).length).toBe(
        1,
      );
      expect(await store.documents.searchText({ terms: ["replacedinbatch"], limit: 10 })).toEqual(
        [],
      );
      expect((await store.stats()).chunks).toBe(1);
    });

    it("reads chunks by id, in id order, leaving out ids it does not hold, however many are asked", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      const paths = Array.from({ length: 250 }, (_, i) => `src/f${String(i).padStart(3, "0")}.ts`);
      await store.documents.writeDocuments(
        paths.map((path, i) => document(resource.id, path, `function f${i}() {}`)),
      );
      const ids: number[] = [];
      for (const path of paths) {
        for (const chunk of await store.documents.getDocumentChunks(resource.id, path))
          ids.push(chunk.id);
      }
      const ascending = [...ids].sort((a, b) => a - b);
      const missing = (ascending.at(-1) ?? 0) + 1000;
      // A few ids, and more than a query's hits: both come back alike.
      for (const asked of [ids.slice(0, 3), ids]) {
        const reversed = [missing, ...[...asked].reverse()];
        const found = await store.documents.getChunks(reversed);
        expect(found.map((chunk) => chunk.id)).toEqual([...asked].sort((a, b) => a - b));
      }
      const [first] = await store.documents.getChunks([ids[7] as number]);
      expect(first?.content).toBe("function f7() {}");
    });

    it("moves a root, refusing one another resource has, and removes a resource with its documents", async () => {
      const store = await fresh();
      const a = await store.documents.ensureResource("/a", "git");
      const b = await store.documents.ensureResource("/b", "folder");
      await store.documents.writeDocuments([
        document(a.id, "x.ts", "alpha"),
        document(a.id, "y.ts", "beta"),
      ]);
      expect(await store.documents.moveResource(a.id, "/b")).toBe(false);
      expect(await store.documents.moveResource(a.id, "/a2")).toBe(true);
      expect((await store.documents.listResources()).map((r) => r.root).sort()).toEqual([
        "/a2",
        "/b",
      ]);
      await store.documents.recordRun(
        b.id,
        { ...b.skipped, binary: 3 },
        "2026-01-01T00:00:00.000Z",
      );
      const recorded = (await store.documents.listResources()).find((r) => r.id === b.id);
      expect(recorded?.lastIndexedAt).toBe("2026-01-01T00:00:00.000Z");
      expect(recorded?.skipped.binary).toBe(3);
      expect(await store.documents.removeResource(a.id)).toBe(2);
      expect(await store.documents.searchText({ terms: ["alpha"], limit: 5 })).toEqual([]);
      expect((await store.stats()).documents).toBe(0);
    });

    it("keeps the skipped files a run named, with their reason and size, until the next run", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
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
      await store.documents.recordRun(
        resource.id,
        counts,
        "2026-01-01T00:00:00.000Z",
        secret,
        named,
      );
      const [recorded] = await store.documents.listResources();
      expect(recorded?.skippedFiles).toEqual(named);
      expect(recorded?.secretFiles).toEqual(secret);
      expect(recorded?.skipped).toEqual(counts);
      // A run that names nothing leaves nothing named from before.
      await store.documents.recordRun(resource.id, resource.skipped, "2026-01-02T00:00:00.000Z");
      expect((await store.documents.listResources())[0]?.skippedFiles).toEqual([]);
    });

    it("reads a document's chunks in line order, all of them, the first few or those of a span", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      const parts = ["import { a } from './a';", "function first() {}", "function second() {}"];
      const one = document(resource.id, "src/parts.ts", parts.join("\n"));
      await store.documents.writeDocuments([
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
      expect(lines(await store.documents.getDocumentChunks(resource.id, "src/parts.ts"))).toEqual([
        1, 2, 3,
      ]);
      expect(
        lines(await store.documents.getDocumentChunks(resource.id, "src/parts.ts", 1)),
      ).toEqual([1]);
      expect(
        lines(await store.documents.getDocumentChunks(resource.id, "src/parts.ts", 2)),
      ).toEqual([1, 2]);
      expect(await store.documents.getDocumentChunks(resource.id, "src/missing.ts", 1)).toEqual([]);
      // A span: only the chunks that hold one of its lines.
      const span = (from: number, to: number) =>
        store.documents.getDocumentChunks(resource.id, "src/parts.ts", undefined, { from, to });
      expect(lines(await span(2, 2))).toEqual([2]);
      expect(lines(await span(2, 9))).toEqual([2, 3]);
      expect(lines(await span(4, 9))).toEqual([]);
      expect(
        lines(
          await store.documents.getDocumentChunks(resource.id, "src/parts.ts", 1, {
            from: 2,
            to: 3,
          }),
        ),
      ).toEqual([2]);
    });

    it("filters by path prefix", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "folder");
      await store.documents.writeDocuments([document(resource.id, "src/a.ts", "retry here")]);
      await store.documents.writeDocuments([document(resource.id, "srcx/b.ts", "retry there")]);
      await store.documents.writeDocuments([document(resource.id, "test/c.ts", "retry test")]);
      const hits = await store.documents.searchText({
        terms: ["retry"],
        limit: 10,
        pathPrefixes: ["src/"],
      });
      expect(paths(hits)).toEqual(["src/a.ts"]);
    });
  },
);
