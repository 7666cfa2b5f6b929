import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { HistoryCache, temporalBackendFor } from "../../src/history/git-temporal-backend.js";
import { DEFAULT_HISTORY_SETTINGS } from "../../src/history/history-settings.js";
import { ingestHistory } from "../../src/history/ingest-history.js";
import {
  MIN_WINDOW,
  taskIdentifiers,
  vocabularyWindow,
} from "../../src/history/task-identifiers.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { queryTerms } from "../../src/text/code-tokenizer.js";
import { Repo } from "../helpers/git-history.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { STORE_ADAPTER_ROWS, type StoreAdapter, sqliteAdapter } from "../helpers/store-adapters.js";
import { tempDir } from "../helpers/temp-dir.js";

const ticket = (n: number) =>
  `export function renewTicket(ticket: { expiresAt: number }): number {\n  return ticket.expiresAt + ${n};\n}\n`;
const other = (name: string, n: number) =>
  `export function ${name}Thing(input: string): string {\n  return input.slice(${n});\n}\n`;

/**
 * Commits saying "session expiry" keep changing renewTicket, whose file never
 * says either word; thirty others change other code for other reasons, on top
 * of the 500 commits a history needs before its words are read.
 */
function repository(): Repo {
  const repo = new Repo();
  const names = ["parse", "render", "fetch", "store", "route"];
  repo.commit("start", {
    "src/ticket.ts": ticket(0),
    ...Object.fromEntries(names.map((name) => [`src/${name}.ts`, other(name, 0)])),
  });
  repo.fastImport(MIN_WINDOW);
  repo.git("reset", "--hard", "--quiet");
  for (let n = 1; n <= 3; n++)
    repo.commit(`fix session expiry, case ${n}`, { "src/ticket.ts": ticket(n) });
  for (let n = 1; n <= 30; n++) {
    const name = names[n % names.length] as string;
    repo.commit(`tidy ${name} code, step ${n}`, { [`src/${name}.ts`]: other(name, n) });
  }
  return repo;
}

let adapter: StoreAdapter = sqliteAdapter;

describe.each(STORE_ADAPTER_ROWS)("words to code from the history (%s store)", (_name, each) => {
  beforeAll(() => {
    adapter = each;
  });

  it("leads a task's words to the identifiers past commits using them changed", async () => {
    const repo = repository();
    const store = await adapter.place().open();
    const resource = await store.documents.ensureResource(repo.root, "git");
    await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    expect(await store.history.commitsWithoutIdentifiers(resource.id, 1000)).toEqual([]);
    const temporal = await temporalBackendFor(store, DEFAULT_HISTORY_SETTINGS, new HistoryCache());
    const found = await temporal?.taskIdentifiers(queryTerms("the session expiry is wrong"), 2);
    // Both names are on every changed line (or its hunk's header) of those commits.
    expect(found?.map(({ name, words }) => [name, words])).toEqual([
      ["expiresAt", ["session", "expiry"]],
      ["renewTicket", ["session", "expiry"]],
    ]);
    // A word's stem is not the word: "expire" is in no message.
    expect(await temporal?.taskIdentifiers(queryTerms("expire"), 2)).toEqual([]);

    // A new commit's diff is read on the next run, and only its.
    repo.commit("session expiry again", {
      "src/ticket.ts": `${ticket(9)}export const graceSeconds = 5;\n`,
    });
    await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    const [newest] = await store.history.recentCommitIdentifiers(resource.id, 30, 1);
    expect(newest?.identifiers).toEqual(["renewTicket", "expiresAt", "graceSeconds"]);
  });

  it("leaves merges and sweeps out of the commits it reads", async () => {
    const store = await adapter.place().open();
    const resource = await store.documents.ensureResource("/repo", "git");
    const commit = (sha: string, parents: string[], minute: number) => ({
      sha,
      parents,
      author: "Ada",
      email: "ada@example.com",
      date: "2024-01-01T00:00:00Z",
      committedAt: 1_704_067_200 + minute * 60,
      subject: `change ${sha.slice(0, 1)}`,
      body: "",
      changes: [{ path: "a.ts", oldPath: null, added: 1, removed: 0 }],
    });
    const [a, b, c, d] = ["a", "b", "c", "d"].map((x) => x.repeat(40)) as [
      string,
      string,
      string,
      string,
    ];
    await store.history.writeHistory({
      resourceId: resource.id,
      add: [commit(a, [], 1), commit(b, [a], 2), commit(c, [a, b], 3), commit(d, [c], 4)],
      remove: [],
      relink: false,
      readAt: null,
    });
    expect(await store.history.commitsWithoutIdentifiers(resource.id, 3)).toEqual([d, c, b]);
    await store.history.setCommitIdentifiers(resource.id, [
      { sha: a, identifiers: ["firstName"] },
      { sha: b, identifiers: null },
      { sha: c, identifiers: ["mergedName"] },
      { sha: d, identifiers: [] },
    ]);
    const read = await store.history.recentCommitIdentifiers(resource.id, 30, 10);
    expect(read.map((row) => row.identifiers)).toEqual([[], ["firstName"]]);
    expect(await store.history.commitsWithoutIdentifiers(resource.id, 10)).toEqual([]);
  });
});

describe("words to code in the navigator", () => {
  it("finds code the task's words never name, and says why", async () => {
    const ask = async (root: string) => {
      const engine = await indexedEngine(root);
      return engine.query({
        task: "the session expiry is wrong",
        budget: 2000,
        strategies: ["breadth-depth-navigator"],
        format: "json",
        explain: true,
      });
    };
    const paths = (answer: Awaited<ReturnType<typeof ask>>) =>
      answer.fragments.flatMap((f) => (f.source.kind === "file" ? [f.source.path] : []));
    const answer = await ask(repository().root);
    expect(paths(answer)).toContain("src/ticket.ts");
    expect(answer.output).toContain(
      "holds renewTicket, which past commits using the task's words (session, expiry) changed",
    );

    const repo = repository();
    writeFileSync(join(repo.root, "ctx.toml"), "[history]\nenabled = false\n");
    expect(paths(await ask(repo.root))).not.toContain("src/ticket.ts");
  });

  it("reads the diffs of commits stored before it existed on the next run", async () => {
    const repo = repository();
    const file = join(tempDir("ctx-upgrade-"), "index.db");
    const first = SqliteStore.open(file, { create: true });
    const resource = await first.documents.ensureResource(repo.root, "git");
    await ingestHistory(first.history, resource, DEFAULT_HISTORY_SETTINGS);
    await first.close();
    // As an index written before diffs were read leaves them after its upgrade.
    const raw = new Database(file);
    raw.prepare("UPDATE history_commits SET identifiers = NULL").run();
    raw.close();
    const store = SqliteStore.open(file, { create: false });
    try {
      expect((await store.history.commitsWithoutIdentifiers(resource.id, 1000)).length).toBe(
        MIN_WINDOW + 34,
      );
      await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
      expect(await store.history.commitsWithoutIdentifiers(resource.id, 1000)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe("words-to-code associations", () => {
  /**
   * `size` commits; the first three say "cookie" and change setSignedCookie, one of them
   * also parseHeader; two more say "cookies" (another word) and change parseCookies.
   */
  const history = (size: number) =>
    vocabularyWindow(
      Array.from({ length: size }, (_, id) => ({
        id,
        identifiers:
          id < 3
            ? ["setSignedCookie", ...(id === 0 ? ["parseHeader"] : [])]
            : id < 5
              ? ["parseCookies"]
              : ["parseHeader"],
        message: id < 3 ? "fix(cookie): sign the session cookie" : id < 5 ? "read cookies" : "misc",
      })),
    );

  it("leads a rare word to what its commits changed more often than anything changes", () => {
    const found = taskIdentifiers(history(MIN_WINDOW), ["cookie", "jar"], 5);
    // parseHeader changes everywhere, and only once with the word: nothing to learn from it.
    expect(found.map(({ name, words }) => [name, words])).toEqual([
      ["setSignedCookie", ["cookie"]],
    ]);
  });

  it("reads nothing into a short history", () => {
    expect(taskIdentifiers(history(MIN_WINDOW - 1), ["cookie"], 5)).toEqual([]);
  });
});
