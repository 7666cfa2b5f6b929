import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { rangeBounds, rebalanced } from "../../src/store/sqlite/search-threads.js";
import { document } from "../helpers/store-documents.js";
import { tempDir } from "../helpers/temp-dir.js";

// The built store: its search threads run the built worker script (npm test builds first).
const { SqliteStore } = await import("../../dist/index.js");
type Store = ReturnType<typeof SqliteStore.open>;

const WORDS = ["parse", "render", "cookie", "session", "token", "stream", "cache", "route"];

/** An index file of `count` one-chunk documents mixing a few words, so ranks differ and some tie. */
async function filledIndex(count: number): Promise<{ file: string; resourceId: string }> {
  const file = join(tempDir(), "index.db");
  const store = SqliteStore.open(file, { create: true });
  const resource = await store.documents.ensureResource("/repo", "git");
  const documents = Array.from({ length: count }, (_, i) => {
    const words = WORDS.filter((_, w) => (i * (w + 3)) % (w + 2) === 0);
    const text = `function f${i}() {\n  // ${words.join(" ")} ${words.slice(0, i % 3).join(" ")}\n  return ${i % 7};\n}`;
    return document(resource.id, `src/dir${i % 11}/file${i}.ts`, text);
  });
  await store.documents.writeDocuments(documents);
  await store.close();
  return { file, resourceId: resource.id };
}

const open: Store[] = [];
function openStore(file: string, searchThreads: number): Store {
  // Split searches score every match, so that the split is what answers; the one-thread
  // store they are held to prunes where it can, which must not change a hit either.
  const store = SqliteStore.open(file, {
    create: false,
    searchThreads,
    splitSearchFrom: 1,
    pruneSearch: searchThreads === 1,
  });
  open.push(store);
  return store;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((store) => store.close()));
});

const QUERIES = [
  ["parse"],
  ["cookie", "session"],
  ["token", "stream", "cache", "route"],
  ["render", "f17"],
  ["return"],
  ["nothing", "matches", "this"],
];

describe("keyword search split across threads", () => {
  it("finds the same hits with the same scores as one search, in the same order", async () => {
    const { file } = await filledIndex(900);
    const split = openStore(file, 3);
    const single = openStore(file, 1);
    expect(await split.prepareSearchThreads()).toBe(true);
    expect(await single.prepareSearchThreads()).toBe(false);
    // Several rounds, so the ranges move as the threads' times are balanced.
    for (let round = 0; round < 5; round++) {
      for (const terms of QUERIES) {
        for (const limit of [1, 10, 100]) {
          const expected = await single.documents.searchText({ terms, limit });
          expect(await split.documents.searchText({ terms, limit })).toEqual(expected);
        }
      }
    }
    expect((await split.documents.searchText({ terms: ["parse"], limit: 100 })).length).toBe(100);
  });

  it("sees what was written after the threads started", async () => {
    const { file, resourceId } = await filledIndex(300);
    const split = openStore(file, 2);
    expect(await split.prepareSearchThreads()).toBe(true);
    await split.documents.searchText({ terms: ["parse"], limit: 10 });
    // New documents change every hit's score (the terms' document counts), the other thread's too.
    await split.documents.writeDocuments(
      Array.from({ length: 200 }, (_, i) =>
        document(resourceId, `src/new${i}.ts`, `const parsed${i} = parse(cookie); // zebra`),
      ),
    );
    const single = openStore(file, 1);
    for (const terms of [...QUERIES, ["zebra"]]) {
      expect(await split.documents.searchText({ terms, limit: 100 })).toEqual(
        await single.documents.searchText({ terms, limit: 100 }),
      );
    }
  });

  it("answers in this thread, the same, when a search thread has stopped", async () => {
    const { file } = await filledIndex(300);
    const split = openStore(file, 2);
    const single = openStore(file, 1);
    expect(await split.prepareSearchThreads()).toBe(true);
    // A thread that dies (out of memory, killed) must not cost the query its answer.
    const internals = split as unknown as {
      keywordSearch: {
        options: { threads: { threads: { worker: { terminate(): Promise<number> } }[] } };
      };
    };
    const threads = internals.keywordSearch.options.threads.threads;
    expect(threads).toHaveLength(1);
    await threads[0]?.worker.terminate();
    for (const terms of QUERIES) {
      expect(await split.documents.searchText({ terms, limit: 20 })).toEqual(
        await single.documents.searchText({ terms, limit: 20 }),
      );
    }
  });

  it("stays in one thread for a small index or an index in memory", async () => {
    const { file } = await filledIndex(50);
    const small = SqliteStore.open(file, { create: false, searchThreads: 4 });
    open.push(small);
    expect(await small.prepareSearchThreads()).toBe(false);
    const memory = SqliteStore.open(":memory:", {
      create: true,
      searchThreads: 4,
      splitSearchFrom: 1,
    });
    open.push(memory);
    expect(await memory.prepareSearchThreads()).toBe(false);
  });
});

describe("range shares", () => {
  it("move toward equal times and always cover the whole id space", () => {
    let [first, second] = [0.5, 0.5];
    // The first range costs three times as much per id as the second.
    for (let i = 0; i < 40; i++) {
      [first = 0, second = 0] = rebalanced([first, second], [first * 30, second * 10]);
    }
    expect(first).toBeCloseTo(0.25, 2);
    expect(first + second).toBeCloseTo(1, 10);
    expect(rangeBounds([0.25, 0.75], 1000)).toEqual([0, 250]);
    // A range that took no time keeps a share, so it is measured again.
    expect(Math.min(...rebalanced([0.02, 0.98], [0, 50]))).toBeGreaterThanOrEqual(0.02 / 1.02);
  });
});
