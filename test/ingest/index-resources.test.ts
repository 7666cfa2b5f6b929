import { renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DocumentChunker } from "../../src/ingest/chunk/chunk-document.js";
import { DEFAULT_CHUNK_LIMITS } from "../../src/ingest/chunk/chunk-limits.js";
import { DEFAULT_LIMITS } from "../../src/ingest/hydrate/discover-files.js";
import { InThreadPreparer } from "../../src/ingest/in-thread-preparer.js";
import { indexResources } from "../../src/ingest/index-resources.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { gitRepo, tempDir, writeFiles } from "../helpers/temp-dir.js";

function setup(root: string) {
  const store = SqliteStore.open(join(tempDir("ctx-db-"), "index.db"), { create: true });
  const run = () =>
    indexResources([root], {
      store,
      limits: DEFAULT_LIMITS,
      preparerFor: () =>
        new InThreadPreparer(new DocumentChunker(DEFAULT_CHUNK_LIMITS, o200kCounter), "structural"),
    });
  const paths = async () =>
    (await store.documents.listDocuments((await store.documents.listResources())[0]?.id ?? ""))
      .map((d) => d.path)
      .sort();
  return { store, run, paths };
}

describe("indexResources", () => {
  it("indexes a git checkout and reports counts and skips", async () => {
    const root = gitRepo({
      "src/retry.ts":
        "export function retryWithBackoff(attempts: number) {\n  return attempts * 2;\n}\n",
      "README.md": "# Demo\n\nRetries things.\n",
      "data.bin": Buffer.from([1, 2, 3]),
    });
    writeFiles(root, { blob: Buffer.from([0x00, 0x01, 0x02, 0x03]) });
    const { store, run, paths } = setup(root);
    const report = await run();
    expect(report.added).toBe(2);
    expect(report.skipped.binary).toBe(2); // data.bin by extension, blob by content
    expect(report.resources[0]?.kind).toBe("git");
    expect(await paths()).toEqual(["README.md", "src/retry.ts"]);
    const hits = await store.documents.searchText({ terms: ["backoff"], limit: 5 });
    expect(hits[0]?.chunk).toMatchObject({
      path: "src/retry.ts",
      symbol: "retryWithBackoff",
      kind: "function",
    });
    await store.close();
  });

  it("tells when every file is written, with the counts, before the store is compacted", async () => {
    const root = tempDir();
    writeFiles(root, {
      "a.py": "def alpha():\n    return 1\n",
      "b.py": "def beta():\n    return 2\n",
    });
    const store = SqliteStore.open(join(tempDir("ctx-db-"), "index.db"), { create: true });
    const events: string[] = [];
    const run = () =>
      indexResources([root], {
        store,
        limits: DEFAULT_LIMITS,
        preparerFor: () =>
          new InThreadPreparer(new DocumentChunker(DEFAULT_CHUNK_LIMITS, o200kCounter), "none"),
        run: {
          onFilesWritten: (counts) => {
            events.push(`written ${JSON.stringify(counts)}`);
          },
        },
        compact: async () => {
          events.push("compact");
        },
      });
    await run();
    rmSync(join(root, "b.py"));
    await run();
    expect(events).toEqual([
      'written {"added":2,"changed":0,"removed":0}',
      "compact",
      'written {"added":0,"changed":0,"removed":1}',
      "compact",
    ]);
    await store.close();
  });

  it("re-reads only what changed: add, modify, delete, rename, touch", async () => {
    const root = tempDir();
    writeFiles(root, {
      "a.py": "def alpha():\n    return 1\n",
      "b.py": "def beta():\n    return 2\n",
      "c.py": "def gamma():\n    return 3\n",
      "d.py": "def delta():\n    return 4\n",
    });
    const { store, run, paths } = setup(root);
    expect(await run()).toMatchObject({ added: 4, changed: 0, removed: 0, unchanged: 0 });
    expect(await run()).toMatchObject({
      added: 0,
      changed: 0,
      removed: 0,
      unchanged: 4,
      bytesRead: 0,
    });

    writeFileSync(join(root, "a.py"), "def alpha_changed():\n    return 10\n");
    rmSync(join(root, "b.py"));
    renameSync(join(root, "c.py"), join(root, "renamed.py"));
    writeFiles(root, { "e.py": "def epsilon():\n    return 5\n" });
    const later = new Date(Date.now() + 5000);
    utimesSync(join(root, "d.py"), later, later); // touched: new mtime, same content
    const report = await run();
    expect(report).toMatchObject({ added: 2, changed: 1, removed: 2, unchanged: 1 });
    expect(await paths()).toEqual(["a.py", "d.py", "e.py", "renamed.py"]);
    expect(await store.documents.searchText({ terms: ["beta"], limit: 5 })).toEqual([]);
    expect((await store.documents.searchText({ terms: ["gamma"], limit: 5 }))[0]?.chunk.path).toBe(
      "renamed.py",
    );
    expect(
      (await store.documents.searchText({ terms: ["alpha"], limit: 5 }))[0]?.chunk.symbol,
    ).toBe("alpha_changed");
    // The touched file is not re-read next time.
    expect(await run()).toMatchObject({ unchanged: 4, bytesRead: 0 });
    await store.close();
  });

  it("drops a document whose file became binary or too large", async () => {
    const root = tempDir();
    writeFiles(root, { "notes.txt": "plain notes\n", "grow.txt": "small\n" });
    const { store, run, paths } = setup(root);
    await run();
    writeFileSync(join(root, "notes.txt"), Buffer.from([0x00, 0xff, 0x00]));
    writeFileSync(join(root, "grow.txt"), "x".repeat(DEFAULT_LIMITS.maxFileBytes + 1));
    const report = await run();
    expect(report).toMatchObject({ removed: 2 });
    expect(report.skipped).toMatchObject({ binary: 1, "too-large": 1 });
    expect(await paths()).toEqual([]);
    await store.close();
  });
});
