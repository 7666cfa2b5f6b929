import { renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Store } from "../../src/core/store.js";
import { DocumentChunker } from "../../src/ingest/chunk/chunk-document.js";
import { DEFAULT_CHUNK_LIMITS } from "../../src/ingest/chunk/chunk-limits.js";
import { DEFAULT_LIMITS } from "../../src/ingest/hydrate/discover-files.js";
import { InThreadPreparer } from "../../src/ingest/in-thread-preparer.js";
import { indexResources } from "../../src/ingest/index-resources.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { tempDir } from "../helpers/temp-dir.js";

/** A small source file whose every identifier is unique to it, so searches tell files apart. */
function source(id: number): string {
  return [
    `def handler${id}(request):`,
    `    return token${id} + ${id}`,
    "",
    `class Store${id}:`,
    `    def load${id}(self):`,
    `        return "value${id}"`,
    "",
  ].join("\n");
}

async function index(root: string, store: Store): Promise<void> {
  await indexResources([root], {
    store,
    limits: DEFAULT_LIMITS,
    preparerFor: () =>
      new InThreadPreparer(new DocumentChunker(DEFAULT_CHUNK_LIMITS, o200kCounter), "structural"),
  });
}

/** What a user can see of an index: each document's chunks, and where each id's terms are found. */
async function snapshot(store: Store, ids: readonly number[]) {
  const resource = (await store.documents.listResources())[0];
  const documents = (await store.documents.listDocuments(resource?.id ?? ""))
    .map((doc) => doc.path)
    .sort();
  const chunks: Record<string, string[]> = {};
  for (const path of documents) {
    chunks[path] = (await store.documents.getDocumentChunks(resource?.id ?? "", path)).map(
      (chunk) =>
        `${chunk.startLine}-${chunk.endLine} ${chunk.kind} ${chunk.symbol}: ${chunk.content}`,
    );
  }
  // Where each id's words are found (not the BM25 scores: deletes in a contentless
  // FTS5 table leave its row count and average lengths as they were).
  const found: Record<number, string[]> = {};
  for (const id of ids) {
    const hits = await store.documents.searchText({
      terms: [`handler${id}`, `value${id}`],
      limit: 20,
    });
    found[id] = hits.map((hit) => `${hit.chunk.path}:${hit.chunk.startLine}`).sort();
  }
  // And the code graph: where each id's symbols are defined and used.
  const graph: Record<number, string[]> = {};
  for (const id of ids) {
    const defined = await store.graph.findSymbols({ name: `load${id}`, limit: 20 });
    const used = await store.graph.findReferences(`token${id}`);
    graph[id] = [
      ...defined.map((d) => `def ${d.path}:${d.startLine}-${d.endLine} ${d.parent}`),
      ...used.map((r) => `ref ${r.path}:${r.line} ${r.kind}`),
    ].sort();
  }
  return { documents, chunks, found, graph };
}

const operation = fc.oneof(
  fc.record({ kind: fc.constant("modify" as const), share: fc.double({ min: 0, max: 1 }) }),
  fc.record({ kind: fc.constant("delete" as const), share: fc.double({ min: 0, max: 0.5 }) }),
  fc.record({ kind: fc.constant("rename" as const), share: fc.double({ min: 0, max: 0.5 }) }),
  fc.record({ kind: fc.constant("add" as const), count: fc.integer({ min: 1, max: 90 }) }),
  fc.record({ kind: fc.constant("touch" as const), share: fc.double({ min: 0, max: 1 }) }),
);

describe("incremental indexing against a fresh index", () => {
  it("ends as a fresh index of the same tree would, over random adds, edits, deletes and renames", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 140 }),
        fc.array(fc.array(operation, { minLength: 1, maxLength: 3 }), {
          minLength: 1,
          maxLength: 3,
        }),
        async (initial, steps) => {
          const root = tempDir();
          let nextId = 0;
          let clock = 1_700_000_000;
          // path → id of the content it holds now
          const files = new Map<string, number>();
          const write = (path: string, id: number) => {
            writeFileSync(join(root, path), source(id));
            utimesSync(join(root, path), clock, clock);
            files.set(path, id);
          };
          for (let i = 0; i < initial; i++) write(`file${i}.py`, nextId++);
          const store = SqliteStore.open(join(tempDir("ctx-db-"), "index.db"), { create: true });
          await index(root, store);

          for (const step of steps) {
            clock += 10;
            for (const op of step) {
              const paths = [...files.keys()].sort();
              const some = (share: number) =>
                paths.filter((_, i) => (i * 7919) % 100 < share * 100);
              if (op.kind === "modify") for (const path of some(op.share)) write(path, nextId++);
              if (op.kind === "delete") {
                for (const path of some(op.share)) {
                  rmSync(join(root, path));
                  files.delete(path);
                }
              }
              if (op.kind === "rename") {
                for (const path of some(op.share)) {
                  const renamed = `moved-${path}`;
                  if (files.has(renamed)) continue;
                  renameSync(join(root, path), join(root, renamed));
                  files.set(renamed, files.get(path) as number);
                  files.delete(path);
                }
              }
              if (op.kind === "add") {
                for (let i = 0; i < op.count; i++) write(`new${nextId}.py`, nextId++);
              }
              if (op.kind === "touch") {
                for (const path of some(op.share)) utimesSync(join(root, path), clock, clock);
              }
            }
            await index(root, store);
          }

          const fresh = SqliteStore.open(join(tempDir("ctx-db-"), "index.db"), { create: true });
          await index(root, fresh);
          const ids = Array.from({ length: nextId }, (_, id) => id);
          const incremental = await snapshot(store, ids);
          expect(incremental).toEqual(await snapshot(fresh, ids));
          // Graph rows of replaced and deleted files go with them.
          expect((await store.stats()).graph.orphans).toBe(0);
          // Content is found where it is now, and content replaced or deleted is not found.
          for (const id of ids) {
            const paths = [...new Set(incremental.found[id]?.map((hit) => hit.split(":")[0]))];
            const holders = [...files]
              .filter(([, content]) => content === id)
              .map(([path]) => path);
            expect(paths.sort()).toEqual(holders.sort());
          }
          await store.close();
          await fresh.close();
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);
});
