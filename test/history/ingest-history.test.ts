import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HistoryBatch, HistoryStore } from "../../src/core/history.js";
import type { Store } from "../../src/core/store.js";
import type { Resource } from "../../src/core/types.js";
import { LogParser, logArguments } from "../../src/history/git-log.js";
import {
  DEFAULT_HISTORY_SETTINGS,
  type HistorySettings,
  sinceSeconds,
} from "../../src/history/history-settings.js";
import { ingestHistories, ingestHistory } from "../../src/history/ingest-history.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { Repo, wordedHistory } from "../helpers/git-history.js";
import { STORE_ADAPTER_ROWS, type StoreAdapter, sqliteAdapter } from "../helpers/store-adapters.js";
import { tempDir } from "../helpers/temp-dir.js";

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

/** Every store adapter: the history contract is the same for each. */
let adapter: StoreAdapter = sqliteAdapter;

async function storeFor(root: string): Promise<{ store: Store; resource: Resource }> {
  const store = await adapter.place().open();
  return { store, resource: await store.documents.ensureResource(root, "git") };
}

const lines = (n: number, tag = "line") =>
  Array.from({ length: n }, (_, i) => `${tag} ${i}`).join("\n");

describe.each(STORE_ADAPTER_ROWS)("git history ingestion (%s store)", (name, each) => {
  beforeAll(() => {
    adapter = each;
  });

  it("stores each commit with its author, date, message and per-file line counts", async () => {
    const repo = new Repo();
    repo.commit("add the parser", {
      "src/parse.ts": lines(10),
      "logo.png": Buffer.from([0, 1, 2]),
    });
    const second = repo.commit(
      "fix: parse empty input\n\nThe parser threw on ''.\nNow it returns [].",
      {
        "src/parse.ts": `${lines(8)}\nchanged\n`,
      },
    );
    const { store, resource } = await storeFor(repo.root);
    const report = await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    expect(report).toMatchObject({ added: 2, removed: 0, commits: 2, head: second, error: null });
    const [latest] = await store.history.fileCommits(resource.id, "src/parse.ts", 5);
    expect(latest).toMatchObject({
      sha: second,
      author: "Ada",
      subject: "fix: parse empty input",
      pathThen: "src/parse.ts",
      added: 1,
      removed: 2,
    });
    expect(latest?.date).toMatch(/^2024-01-01T00:02:00/);
    const activity = await store.history.fileActivity(resource.id, [
      "src/parse.ts",
      "logo.png",
      "nope.ts",
    ]);
    expect(activity.get("src/parse.ts")).toMatchObject({ commits: 2, linesAdded: 11 });
    expect(activity.get("logo.png")).toMatchObject({ commits: 1, linesAdded: 0 });
    expect(activity.has("nope.ts")).toBe(false);
    const span = await store.history.historySpan(resource.id);
    expect(span).toMatchObject({ commits: 2 });
    expect(span.first).toMatch(/^2024-01-01T00:01/);
  });

  it("follows a file's history through renames", async () => {
    const repo = new Repo();
    repo.commit("one", { "old/name.ts": lines(30) });
    repo.commit("two", { "old/name.ts": `${lines(30)}\nmore` });
    mkdirSync(join(repo.root, "new"));
    repo.git("mv", "old/name.ts", "new/name.ts");
    repo.commit("move it");
    repo.commit("three", { "new/name.ts": `${lines(30)}\nmore\nagain` });
    const { store, resource } = await storeFor(repo.root);
    await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    const commits = await store.history.fileCommits(resource.id, "new/name.ts", 10);
    expect(commits.map((commit) => commit.subject)).toEqual(["three", "move it", "two", "one"]);
    expect(commits.map((commit) => commit.pathThen)).toEqual([
      "new/name.ts",
      "new/name.ts",
      "old/name.ts",
      "old/name.ts",
    ]);
    expect((await store.history.fileActivity(resource.id, ["old/name.ts"])).size).toBe(0);
  });

  it("reads only new commits, and nothing when HEAD has not moved", async () => {
    const repo = new Repo();
    repo.commit("one", { "a.ts": "a" });
    repo.commit("two", { "b.ts": "b" });
    const { store, resource } = await storeFor(repo.root);
    await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    const again = await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    expect(again).toMatchObject({ added: 0, removed: 0, commits: 2 });
    repo.git("mv", "a.ts", "c.ts");
    repo.commit("rename a to c");
    const next = await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    expect(next).toMatchObject({ added: 1, removed: 0, commits: 3, rewritten: false });
    // The rename of a commit added on top applies to what was stored before it.
    expect((await store.history.fileCommits(resource.id, "c.ts", 5)).map((c) => c.subject)).toEqual(
      ["rename a to c", "one"],
    );
  });

  it("drops commits HEAD no longer reaches when history is rewritten", async () => {
    const repo = new Repo();
    repo.commit("one", { "a.ts": lines(20) });
    repo.git("mv", "a.ts", "b.ts");
    const renamed = repo.commit("rename a to b");
    const { store, resource } = await storeFor(repo.root);
    await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    // Rewrite: drop the rename and commit something else in its place.
    repo.git("reset", "--quiet", "--hard", "HEAD~1");
    const replacement = repo.commit("edit a instead", { "a.ts": `${lines(20)}\nmore` });
    const report = await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    expect(report).toMatchObject({ added: 1, removed: 1, commits: 2, rewritten: true });
    const shas = await store.history.listCommitShas(resource.id);
    expect(shas).not.toContain(renamed);
    expect(shas).toContain(replacement);
    // The dropped rename no longer carries a.ts's history to b.ts.
    expect((await store.history.fileCommits(resource.id, "a.ts", 5)).map((c) => c.subject)).toEqual(
      ["edit a instead", "one"],
    );
    expect((await store.history.fileActivity(resource.id, ["b.ts"])).size).toBe(0);
  });

  it("counts co-changes only from commits of at most the size limit", async () => {
    const repo = new Repo();
    const wide = Object.fromEntries(
      Array.from({ length: 6 }, (_, i) => [`src/f${i}.ts`, `v1 ${i}`]),
    );
    repo.commit("touch everything", wide);
    repo.commit("pair", { "src/f0.ts": "v2", "src/f1.ts": "v2" });
    repo.commit("pair again", { "src/f0.ts": "v3", "src/f1.ts": "v3", "src/f2.ts": "v3" });
    const { store, resource } = await storeFor(repo.root);
    await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    expect(await store.history.coChanges(resource.id, "src/f0.ts", 5, 10)).toEqual([
      { path: "src/f1.ts", together: 2 },
      { path: "src/f2.ts", together: 1 },
    ]);
    expect((await store.history.coChanges(resource.id, "src/f0.ts", 30, 10))[0]).toEqual({
      path: "src/f1.ts",
      together: 3,
    });
  });

  it("finds the files of the commits whose messages match, renames followed, dropped commits gone", async () => {
    const repo = new Repo();
    repo.commit("start", { "src/a.ts": "a", "src/b.ts": "b", "src/c.ts": "c" });
    repo.commit("Refund vouchers\n\nA voucher refunds the basket.", { "src/a.ts": "a2" });
    repo.git("mv", "src/a.ts", "src/vouchers.ts");
    repo.commit("rename");
    repo.commit("Shipping labels", { "src/b.ts": "b2", "src/c.ts": "c2" });
    const { store, resource } = await storeFor(repo.root);
    await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    const matches = (terms: string[], maxFiles = 30) =>
      store.history.filesOfMatchingCommits(resource.id, terms, maxFiles, 10);
    // A body's words count too; stemmed like chunk text (refunds, refund).
    expect(await matches(["basket"])).toEqual([
      { path: "src/vouchers.ts", score: expect.any(Number), files: 1, subject: "Refund vouchers" },
    ]);
    expect((await matches(["refund", "labels"])).map((m) => [m.path, m.files])).toEqual(
      expect.arrayContaining([
        ["src/vouchers.ts", 1],
        ["src/b.ts", 2],
        ["src/c.ts", 2],
      ]),
    );
    expect(await matches(["labels"], 1)).toEqual([]); // past the size limit
    repo.git("reset", "--quiet", "--hard", "HEAD~1");
    await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    expect(await matches(["labels"])).toEqual([]);
  });

  it.runIf(name === "sqlite")(
    "makes the messages of a history stored before they were searchable searchable",
    async () => {
      const repo = new Repo();
      repo.commit("Refund vouchers", { "src/a.ts": "a" });
      const file = join(tempDir("ctx-history-db-"), "index.db");
      const store = SqliteStore.open(file, { create: true });
      const resource = await store.documents.ensureResource(repo.root, "git");
      await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
      await store.close();
      // Back to schema 10, the last without the message index.
      const db = new Database(file);
      db.exec(`DROP TRIGGER commit_message_gone; DROP TABLE commit_messages;
      ALTER TABLE graph_definitions DROP COLUMN doc;
      ALTER TABLE history_commits DROP COLUMN identifiers;
      DROP TRIGGER graph_reference_list_gone; DROP TABLE graph_reference_names;
      DROP TABLE graph_reference_lists;
      CREATE TABLE graph_references (document_id INTEGER NOT NULL, name TEXT NOT NULL,
        kind TEXT NOT NULL, lines TEXT NOT NULL);
      UPDATE ctx_meta SET value = '10' WHERE key = 'schema_version';`);
      db.close();
      const reopened = SqliteStore.open(file, { create: false });
      stores.push(reopened);
      expect(
        (await reopened.history.filesOfMatchingCommits(resource.id, ["vouchers"], 30, 10)).map(
          (m) => m.path,
        ),
      ).toEqual(["src/a.ts"]);
    },
  );

  it("keeps the newest max_commits, and follows a change of the limits", async () => {
    const repo = new Repo();
    for (let i = 0; i < 5; i++) repo.commit(`c${i}`, { "a.ts": `v${i}` });
    const { store, resource } = await storeFor(repo.root);
    const limited: HistorySettings = { ...DEFAULT_HISTORY_SETTINGS, maxCommits: 3 };
    expect(await ingestHistory(store.history, resource, limited)).toMatchObject({
      added: 3,
      commits: 3,
    });
    expect(
      (await store.history.fileCommits(resource.id, "a.ts", 10)).map((c) => c.subject),
    ).toEqual(["c4", "c3", "c2"]);
    repo.commit("c5", { "a.ts": "v5" });
    expect(await ingestHistory(store.history, resource, limited)).toMatchObject({
      added: 1,
      removed: 1,
      commits: 3,
    });
    const all = await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    expect(all).toMatchObject({ added: 3, removed: 0, commits: 6 });
    const since = { ...DEFAULT_HISTORY_SETTINGS, since: "2024-01-01 00:04" };
    expect(await ingestHistory(store.history, resource, since)).toMatchObject({ commits: 3 });
  });

  it("reads a root inside a work tree as its own history, paths relative to it", async () => {
    const repo = new Repo();
    repo.commit("outside", { "other/x.ts": "x" });
    repo.commit("inside", { "pkg/src/y.ts": "y", "other/x.ts": "x2" });
    const { store, resource } = await storeFor(join(repo.root, "pkg"));
    const report = await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    expect(report).toMatchObject({ added: 1, commits: 1 });
    expect(
      (await store.history.fileActivity(resource.id, ["src/y.ts"])).get("src/y.ts")?.commits,
    ).toBe(1);
    expect(await store.history.coChanges(resource.id, "src/y.ts", 30, 10)).toEqual([]);
  });

  it("reads nothing from folders that are not git checkouts or have no commit yet", async () => {
    const plain = tempDir("ctx-history-plain-");
    const empty = new Repo();
    mkdirSync(join(empty.root, "src"));
    const { store, resource } = await storeFor(empty.root);
    const reports = await ingestHistories(
      store.history,
      [
        { id: resource.id, root: empty.root, kind: "git" },
        { id: "folder", root: plain, kind: "folder" },
      ],
      DEFAULT_HISTORY_SETTINGS,
    );
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ head: null, commits: 0, error: null });
    expect(
      await ingestHistories(store.history, [{ ...resource }], {
        ...DEFAULT_HISTORY_SETTINGS,
        enabled: false,
      }),
    ).toEqual([]);
  });

  it("parses git's output however it arrives, odd characters in messages included", async () => {
    const repo = new Repo();
    repo.commit("one", { "a b.ts": lines(3) });
    repo.git("mv", "a b.ts", "c.ts");
    repo.commit("two\n\nbody with \u001e and\ttabs\n\n  indented");
    repo.commit("merge-like empty");
    const output = repo.git(...logArguments().slice(2), "HEAD");
    const whole = new LogParser();
    const expected = [...whole.push(output), ...whole.end()];
    expect(expected.map((commit) => commit.subject)).toEqual(["merge-like empty", "two", "one"]);
    expect(expected[1]?.body).toBe("body with \u001e and\ttabs\n\n  indented");
    expect(expected[1]?.changes).toEqual([
      { path: "c.ts", oldPath: "a b.ts", added: 0, removed: 0 },
    ]);
    for (const size of [1, 2, 7, 64]) {
      const parser = new LogParser();
      const parsed = [];
      for (let at = 0; at < output.length; at += size)
        parsed.push(...parser.push(output.slice(at, at + size)));
      parsed.push(...parser.end());
      expect(parsed).toEqual(expected);
    }
  });

  it("keeps a run cut short consistent, and the next run finishes it", async () => {
    const repo = new Repo();
    repo.commit("start", { "a.ts": lines(40) });
    // Enough commits for several write batches, with a rename in the last one.
    repo.fastImport(1100);
    repo.git("reset", "--quiet", "--hard");
    repo.git("mv", "a.ts", "z.ts");
    repo.commit("rename a to z");
    const { store, resource } = await storeFor(repo.root);
    let writes = 0;
    // The store as it is, but the second write fails as if the process died there.
    const failing: HistoryStore = Object.assign(Object.create(store.history) as HistoryStore, {
      writeHistory: async (batch: HistoryBatch) => {
        if (++writes === 2) throw new Error("killed");
        await store.history.writeHistory(batch);
      },
    });
    await expect(ingestHistory(failing, resource, DEFAULT_HISTORY_SETTINGS)).rejects.toThrow(
      "killed",
    );
    const partial = await store.history.historySpan(resource.id);
    expect(partial.commits).toBe(500);
    expect(partial.readAt).toBeNull();
    const report = await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    expect(report).toMatchObject({ added: 602, commits: 1102 });
    expect((await store.history.fileCommits(resource.id, "z.ts", 5)).map((c) => c.subject)).toEqual(
      ["rename a to z", "start"],
    );
  }, 60_000);

  it("follows renames across a long history read in parallel parts", async () => {
    const repo = new Repo();
    repo.commit("start", { "a.ts": lines(40) });
    repo.fastImport(2400, { 1500: ["a.ts", "m.ts"] });
    repo.git("reset", "--quiet", "--hard");
    repo.git("mv", "m.ts", "z.ts");
    repo.commit("rename m to z");
    const { store, resource } = await storeFor(repo.root);
    const report = await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    expect(report).toMatchObject({ added: 2402, commits: 2402 });
    const history = await store.history.fileCommits(resource.id, "z.ts", 5);
    expect(history.map((c) => [c.subject, c.pathThen])).toEqual([
      ["rename m to z", "z.ts"],
      ["c1500", "m.ts"],
      ["start", "a.ts"],
    ]);
  }, 60_000);

  it("keeps the stored history when git cannot read the repository any more", async () => {
    const repo = new Repo();
    repo.commit("one", { "a.ts": "a" });
    const { store, resource } = await storeFor(repo.root);
    const settings = DEFAULT_HISTORY_SETTINGS;
    await ingestHistories(store.history, [{ ...resource }], settings);
    writeFileSync(join(repo.root, ".git", "HEAD"), "garbage\n");
    const [report] = await ingestHistories(store.history, [{ ...resource }], settings);
    expect(report?.error).toMatch(/could not read the git history of .*: .*\[history\] enabled/);
    expect(report?.commits).toBe(1);
    expect(await store.history.listCommitShas(resource.id)).toHaveLength(1);
  });

  it("stores commits oldest first however its parallel reads finish, and a run cut short then finished ends as one run", async () => {
    const repo = new Repo();
    // The older half rewrites a long file each time: git takes longer over those
    // diffs, so the newer half is read first when read in parallel.
    const long = (i: number) => Array.from({ length: 2000 }, (_, n) => `${i}:${n}`).join("\n");
    const history = wordedHistory(700).map((commit, i) =>
      i < 350 ? { ...commit, files: { ...commit.files, "data/long.txt": long(i) } } : commit,
    );
    repo.importCommits(history);
    const oldestFirst = repo.git("rev-list", "--reverse", "HEAD").trim().split("\n");
    const fresh = await storeFor(repo.root);
    await ingestHistory(fresh.store.history, fresh.resource, DEFAULT_HISTORY_SETTINGS);
    expect(await fresh.store.history.listCommitShas(fresh.resource.id)).toEqual(oldestFirst);

    const { store, resource } = await storeFor(repo.root);
    let writes = 0;
    // The store as it is, but the second write fails as if the process died there.
    const failing: HistoryStore = Object.assign(Object.create(store.history) as HistoryStore, {
      writeHistory: async (batch: HistoryBatch) => {
        if (++writes === 2) throw new Error("killed");
        await store.history.writeHistory(batch);
      },
    });
    await expect(ingestHistory(failing, resource, DEFAULT_HISTORY_SETTINGS)).rejects.toThrow(
      "killed",
    );
    // What the cut run kept are the oldest commits, as one transaction wrote them.
    const kept = await store.history.listCommitShas(resource.id);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(oldestFirst.slice(0, kept.length));
    await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    expect(await store.history.listCommitShas(resource.id)).toEqual(oldestFirst);
    // Many messages tie on their words: which commits a search keeps follows the stored order.
    for (const terms of [["refund"], ["basket", "label"], ["cache", "fix"]]) {
      expect(await store.history.filesOfMatchingCommits(resource.id, terms, 30, 30)).toEqual(
        await fresh.store.history.filesOfMatchingCommits(fresh.resource.id, terms, 30, 30),
      );
    }
    // The last file renamed, whose history runs through its earlier names.
    const renamed = history.findLast((commit) => commit.rename)?.rename?.[1] ?? "";
    expect((await store.history.fileCommits(resource.id, renamed, 50)).length).toBeGreaterThan(1);
    expect(await store.history.fileCommits(resource.id, renamed, 50)).toEqual(
      await fresh.store.history.fileCommits(fresh.resource.id, renamed, 50),
    );
  }, 60_000);

  it("scores commit messages as a fresh index does once commits fall out of the limits", async () => {
    const repo = new Repo();
    repo.importCommits(wordedHistory(60));
    const settings = (maxCommits: number) => ({ ...DEFAULT_HISTORY_SETTINGS, maxCommits });
    const pruned = await storeFor(repo.root);
    await ingestHistory(pruned.store.history, pruned.resource, settings(60));
    await ingestHistory(pruned.store.history, pruned.resource, settings(25));
    const fresh = await storeFor(repo.root);
    await ingestHistory(fresh.store.history, fresh.resource, settings(25));
    expect(await pruned.store.history.listCommitShas(pruned.resource.id)).toEqual(
      await fresh.store.history.listCommitShas(fresh.resource.id),
    );
    for (const terms of [["refund"], ["basket", "label"], ["shipping"]]) {
      const found = await pruned.store.history.filesOfMatchingCommits(
        pruned.resource.id,
        terms,
        30,
        10,
      );
      expect(found.length).toBeGreaterThan(0);
      // The row count and lengths BM25 divides by are those of the commits kept.
      expect(found).toEqual(
        await fresh.store.history.filesOfMatchingCommits(fresh.resource.id, terms, 30, 10),
      );
    }
  });
});

describe("[history] since", () => {
  it("reads both forms the config takes", () => {
    const now = Date.UTC(2026, 5, 15, 12, 0, 0);
    expect(sinceSeconds("2 years ago", now)).toBe(now / 1000 - 2 * 365 * 86_400);
    expect(sinceSeconds("1 day ago", now)).toBe(now / 1000 - 86_400);
    const local = new Date(2024, 0, 31, 10, 30).getTime() / 1000;
    expect(sinceSeconds("2024-01-31 10:30")).toBe(local);
    expect(sinceSeconds("2024-01-31")).toBe(new Date(2024, 0, 31).getTime() / 1000);
  });
});
