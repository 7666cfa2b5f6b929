import type Database from "better-sqlite3";
import {
  type CoChange,
  type CommitSummary,
  type FileActivity,
  type FileCommit,
  type HistoryBatch,
  type HistorySpan,
  type HistoryStore,
  MAX_BODY_CHARS,
  type MessageMatch,
} from "../../core/history.js";
import { type ChangeLineageRow, relinkedLineages } from "../history-lineage.js";
import { sqliteCommitIdentifiers } from "./commit-identifiers.js";
import { inWriteTransaction } from "./write-transaction.js";

/** A subject says what a commit is for; its body, how. */
const SUBJECT_WEIGHT = 2;

/** Every change's lineage followed again (see relinkedLineages); only rows that differ are written. */
function relinkRenames(db: Database.Database, resourceId: string): void {
  const rows = db
    .prepare(
      `SELECT c.rowid AS id, c.commit_id, c.path, c.old_path, c.lineage
         FROM history_changes c JOIN history_commits m ON m.id = c.commit_id
        WHERE m.resource_id = ?
        ORDER BY m.committed_at DESC, m.id DESC`,
    )
    .all(resourceId) as ChangeLineageRow[];
  const update = db.prepare("UPDATE history_changes SET lineage = ? WHERE rowid = ?");
  for (const { id, lineage } of relinkedLineages(rows)) update.run(lineage, id);
}

export function historyStats(db: Database.Database): {
  commits: number;
  changes: number;
  diffsRead: number;
} {
  return db
    .prepare(
      `SELECT (SELECT count(*) FROM history_commits) AS commits,
              (SELECT count(*) FROM history_changes) AS changes,
              (SELECT count(*) FROM history_commits WHERE identifiers IS NOT NULL) AS diffsRead`,
    )
    .get() as { commits: number; changes: number; diffsRead: number };
}

/** The history store over one connection: commits, their file changes and words to code. */
export function sqliteHistory(db: Database.Database): HistoryStore {
  return {
    ...sqliteCommitIdentifiers(db),
    async listCommitShas(resourceId: string): Promise<string[]> {
      return db
        .prepare("SELECT sha FROM history_commits WHERE resource_id = ? ORDER BY id")
        .pluck()
        .all(resourceId) as string[];
    },
    async oldestCommits(
      resourceId: string,
      count: number,
      beforeSeconds: number | null,
    ): Promise<string[]> {
      return db
        .prepare(
          `SELECT sha FROM history_commits WHERE resource_id = $r AND (
         id IN (SELECT id FROM history_commits WHERE resource_id = $r
                 ORDER BY committed_at, id LIMIT $count)
         OR committed_at < $before)`,
        )
        .pluck()
        .all({ r: resourceId, count, before: beforeSeconds ?? -1 }) as string[];
    },
    /** Adds and removes commits, follows renames, and records the head, in one transaction. */
    async writeHistory(batch: HistoryBatch): Promise<void> {
      const { resourceId } = batch;
      inWriteTransaction(db, () => {
        const remove = db.prepare("DELETE FROM history_commits WHERE resource_id = ? AND sha = ?");
        for (const sha of batch.remove) remove.run(resourceId, sha);
        const addCommit = db.prepare(
          `INSERT OR IGNORE INTO history_commits
         (resource_id, sha, parents, author, email, authored_at, committed_at, subject, body, file_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        );
        const addChange = db.prepare(
          `INSERT INTO history_changes (commit_id, resource_id, path, old_path, lineage, added, removed)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
        );
        const rename = db.prepare(
          "UPDATE history_changes SET lineage = ? WHERE resource_id = ? AND lineage = ?",
        );
        // Deleted with its commit by a trigger (migrations 11 and 14).
        const addMessage = db.prepare(
          "INSERT INTO commit_messages (rowid, subject, body) VALUES (?, ?, ?)",
        );
        for (const commit of batch.add) {
          const added = addCommit.run(
            resourceId,
            commit.sha,
            commit.parents.join(" "),
            commit.author,
            commit.email,
            commit.date,
            commit.committedAt,
            commit.subject,
            commit.body.slice(0, MAX_BODY_CHARS),
            commit.changes.length,
          );
          if (added.changes === 0) continue; // stored already (a run that was cut short)
          addMessage.run(
            added.lastInsertRowid,
            commit.subject,
            commit.body.slice(0, MAX_BODY_CHARS),
          );
          // Files stored under a name this commit renames take the new name first.
          for (const change of commit.changes) {
            if (change.oldPath !== null && change.oldPath !== change.path)
              rename.run(change.path, resourceId, change.oldPath);
          }
          for (const change of commit.changes) {
            addChange.run(
              added.lastInsertRowid,
              resourceId,
              change.path,
              change.oldPath,
              change.path,
              change.added,
              change.removed,
            );
          }
        }
        if (batch.relink) relinkRenames(db, resourceId);
        if (batch.readAt !== null) {
          db.prepare(
            `INSERT INTO history_heads (resource_id, head) VALUES (?, ?)
         ON CONFLICT (resource_id) DO UPDATE SET head = excluded.head`,
          ).run(resourceId, batch.readAt);
        }
      });
    },
    async historySpan(resourceId: string): Promise<HistorySpan> {
      const row = db
        .prepare(
          `SELECT count(*) AS commits,
              (SELECT authored_at FROM history_commits WHERE resource_id = $r
                ORDER BY committed_at, id LIMIT 1) AS first,
              (SELECT authored_at FROM history_commits WHERE resource_id = $r
                ORDER BY committed_at DESC, id DESC LIMIT 1) AS last,
              (SELECT head FROM history_heads WHERE resource_id = $r) AS head
         FROM history_commits WHERE resource_id = $r`,
        )
        .get({ r: resourceId }) as {
        commits: number;
        first: string | null;
        last: string | null;
        head: string | null;
      };
      return { commits: row.commits, readAt: row.head, first: row.first, last: row.last };
    },
    async fileActivity(
      resourceId: string,
      paths: readonly string[],
    ): Promise<Map<string, FileActivity>> {
      const statement = db.prepare(
        `SELECT count(DISTINCT commit_id) AS commits, total(added) AS added, total(removed) AS removed
       FROM history_changes WHERE resource_id = ? AND lineage = ?`,
      );
      // Author dates carry their offsets, so the latest is the one committed last, not the largest string.
      const latest = db.prepare(
        `SELECT m.authored_at FROM history_changes c JOIN history_commits m ON m.id = c.commit_id
      WHERE c.resource_id = ? AND c.lineage = ? ORDER BY m.committed_at DESC, m.id DESC LIMIT 1`,
      );
      const found = new Map<string, FileActivity>();
      for (const path of new Set(paths)) {
        const row = statement.get(resourceId, path) as {
          commits: number;
          added: number;
          removed: number;
        };
        if (row.commits === 0) continue;
        found.set(path, {
          path,
          commits: row.commits,
          lastChanged: latest.pluck().get(resourceId, path) as string,
          linesAdded: row.added,
          linesRemoved: row.removed,
        });
      }
      return found;
    },
    async coChanges(
      resourceId: string,
      path: string,
      maxFiles: number,
      limit: number,
    ): Promise<CoChange[]> {
      return db
        .prepare(
          `SELECT other.lineage AS path, count(DISTINCT other.commit_id) AS together
         FROM history_changes mine
         JOIN history_commits m ON m.id = mine.commit_id AND m.file_count <= ?
         JOIN history_changes other ON other.commit_id = mine.commit_id
        WHERE mine.resource_id = ? AND mine.lineage = ? AND other.lineage <> mine.lineage
        GROUP BY other.lineage
        ORDER BY together DESC, other.lineage
        LIMIT ?`,
        )
        .all(maxFiles, resourceId, path, limit) as CoChange[];
    },
    /**
     * The files changed by the `commits` stored commits (of at most `maxFiles`
     * files) whose messages best match the terms, each with those commits' match
     * (BM25, higher is better) and file counts: what the history says about which
     * files a task like these would touch.
     */
    async filesOfMatchingCommits(
      resourceId: string,
      terms: readonly string[],
      maxFiles: number,
      commits: number,
    ): Promise<MessageMatch[]> {
      if (terms.length === 0 || commits <= 0) return [];
      const match = terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
      // The best matches over every resource's commits, then this resource's: a
      // filter inside the full-text search would make it read every match. Ties go
      // to the commit stored first (the older), as in the PostgreSQL store.
      return db
        .prepare(
          `SELECT c.lineage AS path, hits.score, m.file_count AS files, m.subject
         FROM (SELECT rowid AS id, -bm25(commit_messages, ${SUBJECT_WEIGHT}, 1) AS score
                 FROM commit_messages WHERE commit_messages MATCH ?
                ORDER BY bm25(commit_messages, ${SUBJECT_WEIGHT}, 1), rowid LIMIT ?) AS hits
         JOIN history_commits m ON m.id = hits.id AND m.resource_id = ? AND m.file_count <= ?
         JOIN history_changes c ON c.commit_id = hits.id
        ORDER BY hits.score DESC, c.lineage, hits.id`,
        )
        .all(match, commits, resourceId, maxFiles) as MessageMatch[];
    },
    async fileCommits(resourceId: string, path: string, limit: number): Promise<FileCommit[]> {
      return db
        .prepare(
          `SELECT m.sha, m.authored_at AS date, m.author, m.subject, c.path AS pathThen,
              c.added, c.removed
         FROM history_changes c JOIN history_commits m ON m.id = c.commit_id
        WHERE c.resource_id = ? AND c.lineage = ?
        ORDER BY m.committed_at DESC, m.id DESC
        LIMIT ?`,
        )
        .all(resourceId, path, limit) as FileCommit[];
    },
    async getCommits(resourceId: string, shas: readonly string[]): Promise<CommitSummary[]> {
      return db
        .prepare(
          `SELECT sha, authored_at AS date, author, subject, body FROM history_commits
        WHERE resource_id = ? AND sha IN (SELECT value FROM json_each(?))`,
        )
        .all(resourceId, JSON.stringify(shas)) as CommitSummary[];
    },
    async commitTimes(resourceId: string): Promise<number[]> {
      return db
        .prepare(
          "SELECT committed_at FROM history_commits WHERE resource_id = ? ORDER BY committed_at",
        )
        .pluck()
        .all(resourceId) as number[];
    },
    async changeTimes(
      resourceId: string,
      paths: readonly string[],
      limit: number,
    ): Promise<Map<string, number[]>> {
      const rows = db
        .prepare(
          `SELECT lineage AS path, time FROM (
         SELECT c.lineage, m.committed_at AS time,
                row_number() OVER (PARTITION BY c.lineage ORDER BY m.committed_at DESC, m.id DESC) AS n
           FROM history_changes c JOIN history_commits m ON m.id = c.commit_id
          WHERE c.resource_id = ? AND c.lineage IN (SELECT value FROM json_each(?)))
        WHERE n <= ? ORDER BY path, time DESC`,
        )
        .all(resourceId, JSON.stringify([...new Set(paths)]), limit) as {
        path: string;
        time: number;
      }[];
      const found = new Map<string, number[]>();
      for (const row of rows) {
        const times = found.get(row.path);
        if (times) times.push(row.time);
        else found.set(row.path, [row.time]);
      }
      return found;
    },
  };
}
