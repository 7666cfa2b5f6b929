import type Database from "better-sqlite3";
import type { CommitIdentifiers, HistoryStore } from "../../core/history.js";
import { namesOf, SWEEP } from "../commit-identifier-rows.js";
import { inWriteTransaction } from "./write-transaction.js";

// What commits' diffs touched (migration 13): NULL until a commit's diff is read,
// "*" for a sweep (see MAX_COMMIT_IDENTIFIERS), else the names joined by spaces.

/** The history store's words-to-code records of commits, over one connection. */
export function sqliteCommitIdentifiers(
  db: Database.Database,
): Pick<
  HistoryStore,
  "commitsWithoutIdentifiers" | "setCommitIdentifiers" | "recentCommitIdentifiers"
> {
  return {
    async commitsWithoutIdentifiers(resourceId: string, limit: number): Promise<string[]> {
      return db
        .prepare(
          `SELECT sha FROM (SELECT id, sha, committed_at, identifiers FROM history_commits
                        WHERE resource_id = ? ORDER BY committed_at DESC, id DESC LIMIT ?)
        WHERE identifiers IS NULL ORDER BY committed_at DESC, id DESC`,
        )
        .pluck()
        .all(resourceId, limit) as string[];
    },
    async setCommitIdentifiers(
      resourceId: string,
      commits: readonly { readonly sha: string; readonly identifiers: readonly string[] | null }[],
    ): Promise<void> {
      inWriteTransaction(db, () => {
        const set = db.prepare(
          "UPDATE history_commits SET identifiers = ? WHERE resource_id = ? AND sha = ?",
        );
        for (const { sha, identifiers } of commits)
          set.run(identifiers === null ? SWEEP : identifiers.join(" "), resourceId, sha);
      });
    },
    async recentCommitIdentifiers(
      resourceId: string,
      maxFiles: number,
      limit: number,
    ): Promise<CommitIdentifiers[]> {
      const rows = db
        .prepare(
          `SELECT id, identifiers, subject, body FROM history_commits
        WHERE resource_id = ? AND file_count <= ? AND instr(parents, ' ') = 0
          AND identifiers IS NOT NULL AND identifiers <> '${SWEEP}'
        ORDER BY committed_at DESC, id DESC LIMIT ?`,
        )
        .all(resourceId, maxFiles, limit) as {
        id: number;
        identifiers: string;
        subject: string;
        body: string;
      }[];
      return rows.map((row) => ({
        id: row.id,
        identifiers: namesOf(row.identifiers),
        message: `${row.subject}\n${row.body}`,
      }));
    },
  };
}
