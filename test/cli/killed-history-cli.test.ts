import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { Repo, wordedHistory } from "../helpers/git-history.js";
import { type CliResult, runCli, spawnCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const COMMITS = 1200;
const TASKS = ["refund the basket", "shipping label cache", "fix the voucher parser"];

/** Commits the index at `file` holds now; 0 before it has any (or any tables). */
function storedCommits(file: string): number {
  if (!existsSync(file)) return 0;
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return db.prepare("SELECT count(*) FROM history_commits").pluck().get() as number;
    } finally {
      db.close();
    }
  } catch {
    return 0; // not made yet
  }
}

/** What the index keeps of the history, in the order it is stored: what ties are broken by. */
function storedHistory(file: string): unknown {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return {
      commits: db
        .prepare("SELECT sha, file_count, identifiers FROM history_commits ORDER BY id")
        .all(),
      changes: db
        .prepare(
          `SELECT m.sha, c.path, c.old_path, c.lineage FROM history_changes c
             JOIN history_commits m ON m.id = c.commit_id ORDER BY m.id, c.rowid`,
        )
        .all(),
    };
  } finally {
    db.close();
  }
}

function answer(result: CliResult): string[] {
  expect(result.code, result.stderr).toBe(0);
  const parsed = JSON.parse(result.stdout) as {
    fragments: { path: string; startLine: number; endLine: number; score: number }[];
  };
  return parsed.fragments.map((f) => `${f.path}:${f.startLine}-${f.endLine} ${f.score}`);
}

describe("kill -9 during history ingestion", () => {
  it("leaves an index that answers as a fresh one does after the next run", async () => {
    const repo = new Repo();
    // Messages from a few words: many tie on a search, and the stored order breaks the ties.
    repo.importCommits(wordedHistory(COMMITS));
    const env = { XDG_CONFIG_HOME: tempDir("ctx-home-") };
    const answers = (db: string) =>
      TASKS.map((task) =>
        answer(
          runCli(["query", "--no-refresh", "--format", "json", "--db", db, task], repo.root, env),
        ),
      );
    const fresh = join(tempDir("ctx-fresh-"), "index.db");
    expect(runCli(["index", "--db", fresh], repo.root, env).code).toBe(0);
    expect(storedCommits(fresh)).toBe(COMMITS);
    const expected = answers(fresh);

    // Killed once the first batch is stored, and once half the history is.
    for (const killAt of [1, COMMITS / 2 + 1]) {
      const db = join(tempDir("ctx-killed-"), "index.db");
      const { process: child, result } = spawnCli(["index", "--db", db], repo.root, env);
      let exited = false;
      void result.then(() => {
        exited = true;
      });
      let stored = 0;
      while (!exited && stored < killAt) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        stored = storedCommits(db);
      }
      child.kill("SIGKILL");
      const killed = await result;
      expect(killed.code, `the run ended before ${killAt} commits were stored`).toBe(137);
      expect(stored).toBeGreaterThanOrEqual(killAt);

      const next = runCli(["index", "--db", db], repo.root, env);
      expect(next.code, next.stderr).toBe(0);
      expect(storedHistory(db)).toEqual(storedHistory(fresh));
      expect(answers(db)).toEqual(expected);
    }
  }, 180_000);
});
