import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunkFragment } from "../../src/assemble/chunk-fragments.js";
import type { ContextFragment } from "../../src/core/fragment.js";
import type { Store } from "../../src/core/store.js";
import type { StoredChunk } from "../../src/core/types.js";
import { DocumentChunker } from "../../src/ingest/chunk/chunk-document.js";
import { DEFAULT_CHUNK_LIMITS } from "../../src/ingest/chunk/chunk-limits.js";
import { DEFAULT_LIMITS } from "../../src/ingest/hydrate/discover-files.js";
import { InThreadPreparer } from "../../src/ingest/in-thread-preparer.js";
import { indexResources } from "../../src/ingest/index-resources.js";
import { HEAD_AFTER, HEAD_REASON, withBestFileHead } from "../../src/rank/best-file-head.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

/** A module whose head (imports) says nothing of what its functions do. */
const SESSIONS = [
  `import { createHash } from "node:crypto";`,
  `import { readFile, writeFile } from "node:fs/promises";`,
  `import type { Clock } from "./clock.js";`,
  "",
  ...["open", "renew", "expire", "revoke", "audit", "persist", "restore", "rotate"].flatMap(
    (verb) => [
      `/** ${verb} a session token after checking its signature against the stored key. */`,
      `export async function ${verb}Session(token: string, clock: Clock): Promise<string> {`,
      `  const digest = createHash("sha256").update(token).digest("hex");`,
      `  const stored = await readFile(\`/var/sessions/\${digest}\`, "utf8");`,
      `  if (stored.length === 0) throw new Error("unknown session ${verb}");`,
      `  await writeFile(\`/var/sessions/\${digest}\`, String(clock.now()));`,
      "  return digest;",
      "}",
      "",
    ],
  ),
].join("\n");

let store: Store;
let root: string;
let chunks: StoredChunk[];

beforeAll(async () => {
  root = tempDir("ctx-head-");
  writeFiles(root, {
    "src/sessions.ts": SESSIONS,
    "src/other.ts": "export const other = 1;\n",
  });
  store = SqliteStore.open(join(tempDir("ctx-head-db-"), "index.db"), { create: true });
  await indexResources([root], {
    store,
    limits: DEFAULT_LIMITS,
    preparerFor: () =>
      new InThreadPreparer(new DocumentChunker(DEFAULT_CHUNK_LIMITS, o200kCounter), "structural"),
  });
  const resource = (await store.documents.listResources())[0];
  chunks = await store.documents.getDocumentChunks(resource?.id ?? "", "src/sessions.ts");
});

afterAll(async () => {
  await store.close();
});

/** The file's chunks after its head, best first, scored 1, 0.9, 0.8… */
function deepHits(count: number): ContextFragment[] {
  return chunks
    .slice(1, 1 + count)
    .reverse()
    .map((chunk, rank) => chunkFragment(chunk, 1 - rank / 10, "test", o200kCounter));
}

describe("the best file's head", () => {
  it("the file has a head chunk of its own and functions after it", () => {
    expect(chunks.length).toBeGreaterThan(HEAD_AFTER + 1);
    expect(chunks[0]?.startLine).toBe(1);
    expect(chunks[0]?.content).toContain("import { createHash }");
    expect(chunks[1]?.startLine).toBeGreaterThan(1);
  });

  it("follows the first candidates, scored between its neighbours, with its reason", async () => {
    const hits = deepHits(HEAD_AFTER + 2);
    const placed = await withBestFileHead(hits, store.documents, o200kCounter, 100_000);
    expect(placed).toHaveLength(hits.length + 1);
    const head = placed[HEAD_AFTER];
    expect(head?.source).toMatchObject({ path: "src/sessions.ts", startLine: 1 });
    expect(head?.content).toContain("import { createHash }");
    expect(head?.ranking).toEqual([HEAD_REASON]);
    expect(head?.strategy).toBe("test");
    const scores = placed.map((fragment) => fragment.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // The candidates themselves keep their order.
    expect(placed.filter((fragment) => fragment !== head)).toEqual(hits);
  });

  it("goes last when fewer candidates than its place came", async () => {
    const placed = await withBestFileHead(deepHits(2), store.documents, o200kCounter, 100_000);
    expect(placed[2]?.source).toMatchObject({ startLine: 1 });
  });

  it("moves up when it is a candidate further down, and is not added twice", async () => {
    const hits = deepHits(HEAD_AFTER + 2);
    const headHit = {
      ...chunkFragment(chunks[0] as StoredChunk, 0.01, "test", o200kCounter),
      signals: { keyword: 0.2 },
      ranking: ["earlier reason"],
    };
    const placed = await withBestFileHead(
      [...hits, headHit],
      store.documents,
      o200kCounter,
      100_000,
    );
    expect(placed).toHaveLength(hits.length + 1);
    expect(placed.filter((fragment) => fragment.id === headHit.id)).toHaveLength(1);
    expect(placed[HEAD_AFTER]?.id).toBe(headHit.id);
    // It keeps what its strategy measured, with the reason it moved.
    expect(placed[HEAD_AFTER]?.signals).toEqual({ keyword: 0.2 });
    expect(placed[HEAD_AFTER]?.ranking).toEqual(["earlier reason", HEAD_REASON]);
  });

  it("is left out where the first candidates hold it, the best is the head, or the budget is small", async () => {
    const hits = deepHits(HEAD_AFTER + 2);
    const headHit = chunkFragment(chunks[0] as StoredChunk, 0.95, "test", o200kCounter);
    const held = [hits[0] as ContextFragment, headHit, ...hits.slice(1)];
    expect(await withBestFileHead(held, store.documents, o200kCounter, 100_000)).toEqual(held);
    const headFirst = [{ ...headHit, score: 2 }, ...hits];
    expect(await withBestFileHead(headFirst, store.documents, o200kCounter, 100_000)).toEqual(
      headFirst,
    );
    // A head over a tenth of the budget would push out hits of other files.
    const small = headHit.tokens * 9;
    expect(await withBestFileHead(hits, store.documents, o200kCounter, small)).toEqual(hits);
    expect(
      await withBestFileHead(hits, store.documents, o200kCounter, headHit.tokens * 10),
    ).toHaveLength(hits.length + 1);
  });

  it("comes with a query's answer whose best hit is deep in a file", async () => {
    const project = tempDir("ctx-head-project-");
    // Over half the budget: a smaller file would be shown whole (small-files-whole.ts).
    const filler = Array.from(
      { length: 150 },
      (_, i) =>
        `/** Scales a length by ${i + 2}. */\nexport function scale${i}(x: number): number {\n  return x * ${i + 2};\n}\n`,
    );
    writeFiles(project, {
      "src/tokens.ts": [
        `import { createHash } from "node:crypto";`,
        `import type { Clock } from "./clock.js";`,
        "",
        ...filler,
        "/** Revokes a session: its token no longer opens anything. */",
        "export function revokeSession(token: string, clock: Clock): string {",
        `  return createHash("sha256").update(token + clock.now()).digest("hex");`,
        "}",
      ].join("\n"),
    });
    const engine = await indexedEngine(project);
    const answer = await engine.query({
      task: "how is a session revoked",
      budget: 4000,
      format: "json",
      explain: true,
    });
    const head = answer.fragments.find(
      (fragment) => fragment.source.kind === "file" && fragment.source.startLine === 1,
    );
    expect(head?.content).toContain(`import { createHash } from "node:crypto";`);
    expect(head?.content).not.toContain("revokeSession");
    // The lines below the head may come with it (lines-around.ts); the reason it is there is first.
    expect(head?.ranking?.[0]).toBe(HEAD_REASON);
    expect(answer.fragments[0]?.content).toContain("revokeSession");
    expect(answer.output).toContain(HEAD_REASON);
  });
});
