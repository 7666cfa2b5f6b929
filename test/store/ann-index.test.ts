import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { normalize } from "../../src/core/embedder.js";
import type { DocumentToStore } from "../../src/core/store.js";
import { withSearchText } from "../../src/ingest/search-text.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { tempDir } from "../helpers/temp-dir.js";

const DIMENSIONS = 16;

/** A unit vector near one of eight directions, so neighbours are well defined. */
function vectorFor(index: number): Float32Array {
  const vector = new Float32Array(DIMENSIONS);
  vector[index % 8] = 1;
  vector[8 + (index % 5)] = 0.2 + (index % 7) * 0.01;
  return normalize(vector);
}

async function storeWith(
  folder: string,
  count: number,
  annThreshold: number,
  pathOf = (i: number) => `src/item${i}.ts`,
) {
  const store = SqliteStore.open(join(folder, "index.db"), { create: true, annThreshold });
  const resource = await store.documents.ensureResource("/repo", "folder");
  for (let i = 0; i < count; i++) {
    const text = `function item${i}() { return ${i}; }`;
    const document: DocumentToStore = {
      resourceId: resource.id,
      path: pathOf(i),
      language: "typescript",
      size: text.length,
      mtimeMs: 0,
      hash: `h${i}`,
      chunks: withSearchText({ path: pathOf(i), language: "typescript", text, contexts: "none" }, [
        {
          startLine: 1,
          endLine: 1,
          kind: "function",
          symbol: `item${i}`,
          parent: null,
          content: text,
          header: "",
          defines: [],
          tokens: 8,
        },
      ]),
    };
    await store.documents.writeDocuments([document]);
  }
  const work = await store.vectors.listUnembedded("test:16", 1000);
  const byHash = new Map(work.map((item) => [item.embedHash, item]));
  await store.vectors.putEmbeddings(
    "test:16",
    DIMENSIONS,
    [...byHash.values()].map((item) => ({
      embedHash: item.embedHash,
      vector: vectorFor(Number(/item(\d+)/.exec(item.text)?.[1])),
    })),
  );
  return store;
}

describe("ANN index over many vectors", () => {
  it("answers nearly as exact search does once past the threshold, keeps its file, and follows new vectors", async () => {
    const folder = tempDir();
    const exactStore = await storeWith(tempDir(), 200, 1_000_000);
    const exact = (await exactStore.vectors.searchVectors("test:16", vectorFor(3), 10)).map(
      (hit) => hit.chunk.path,
    );
    await exactStore.close();

    const store = await storeWith(folder, 200, 50);
    const approximate = (await store.vectors.searchVectors("test:16", vectorFor(3), 10)).map(
      (hit) => hit.chunk.path,
    );
    // Approximate: a build (threads race while linking) may swap one near-tie at the
    // edge of the top 10 (2 % of builds here), never the nearest.
    expect(approximate[0]).toBe(exact[0]);
    expect(approximate.filter((path) => exact.includes(path)).length).toBeGreaterThanOrEqual(9);
    await store.close();
    const indexFile = readdirSync(folder).find((name) => name.endsWith(".usearch"));
    expect(indexFile).toBeDefined();
    const written = statSync(join(folder, indexFile as string)).mtimeMs;

    // Reopened, it loads the file instead of rebuilding: the same graph, the same answers.
    const reopened = SqliteStore.open(join(folder, "index.db"), {
      create: false,
      annThreshold: 50,
    });
    const again = (await reopened.vectors.searchVectors("test:16", vectorFor(3), 10)).map(
      (hit) => hit.chunk.path,
    );
    expect(again).toEqual(approximate);
    expect(statSync(join(folder, indexFile as string)).mtimeMs).toBe(written);

    // A vector written now is found at once: the loaded index follows the table.
    const resource = (await reopened.documents.listResources())[0];
    const text = "function newcomer() { return 1; }";
    await reopened.documents.writeDocuments([
      {
        resourceId: resource?.id ?? "",
        path: "src/newcomer.ts",
        language: "typescript",
        size: text.length,
        mtimeMs: 0,
        hash: "new",
        chunks: withSearchText(
          { path: "src/newcomer.ts", language: "typescript", text, contexts: "none" },
          [
            {
              startLine: 1,
              endLine: 1,
              kind: "function",
              symbol: "newcomer",
              parent: null,
              content: text,
              header: "",
              defines: [],
              tokens: 8,
            },
          ],
        ),
      },
    ]);
    const [pending] = await reopened.vectors.listUnembedded("test:16", 10);
    // Close to one of the clusters (as a real new chunk would be), but nearer to nothing else.
    const target = normalize(
      Float32Array.from(vectorFor(3), (value, i) => value + (i === 15 ? 0.05 : 0)),
    );
    await reopened.vectors.putEmbeddings("test:16", DIMENSIONS, [
      { embedHash: pending?.embedHash ?? "", vector: target },
    ]);
    const [nearest] = await reopened.vectors.searchVectors("test:16", target, 1);
    expect(nearest?.chunk.path).toBe("src/newcomer.ts");
    await reopened.close();
    expect(existsSync(join(folder, `${indexFile}.json`))).toBe(true);
  });

  it.each([
    ["exact", 100_000],
    ["ANN", 50],
  ])(
    "a path filter (%s) finds the folder's nearest chunks, however far the rest of the repo is",
    async (_, threshold) => {
      const folder = tempDir("ctx-vec-paths-");
      // Four chunks in lib/, all in directions 3 and 7; the query points at direction 0,
      // which 50 chunks elsewhere match better than any of them.
      const inLib = (i: number) => i % 100 === 7 || i % 100 === 11;
      const store = await storeWith(folder, 400, threshold, (i) =>
        inLib(i) ? `lib/item${i}.ts` : `src/item${i}.ts`,
      );
      const hits = await store.vectors.searchVectors("test:16", vectorFor(0), 10, ["lib"]);
      expect(hits.map((hit) => hit.chunk.path).sort()).toEqual(
        [7, 11, 107, 111, 207, 211, 307, 311].map((i) => `lib/item${i}.ts`).sort(),
      );
      const similarities = hits.map((hit) => hit.similarity);
      expect(similarities).toEqual([...similarities].sort((a, b) => b - a));
      // Without the filter, lib/ is nowhere near the top.
      const overall = await store.vectors.searchVectors("test:16", vectorFor(0), 10);
      expect(overall.every((hit) => hit.chunk.path.startsWith("src/"))).toBe(true);
      await store.close();
    },
  );
});
