import {
  type CoChange,
  type CommitSummary,
  type FileActivity,
  type FileCommit,
  type HistoryBatch,
  type HistorySpan,
  type HistoryStore,
  MAX_BODY_CHARS,
} from "../../core/history.js";
import { type ChangeLineageRow, relinkedLineages } from "../history-lineage.js";
import { countFields } from "./bm25.js";
import { pgCommitIdentifiers } from "./commit-identifiers.js";
import { addMessageStats, pgCommitMessages } from "./commit-messages.js";
import { type PgSession, type Queryable, rowsOf } from "./pg-session.js";

/** Every change's lineage followed again (see relinkedLineages); only rows that differ are written. */
async function relinkRenames(
  client: Queryable,
  projectId: number,
  resourceId: string,
): Promise<void> {
  const rows = await rowsOf<ChangeLineageRow>(
    client,
    `SELECT c.id, c.commit_id, c.path, c.old_path, c.lineage
       FROM history_changes c JOIN history_commits m ON m.id = c.commit_id
      WHERE m.project_id = $1 AND m.resource_id = $2
      ORDER BY m.committed_at DESC, m.id DESC, c.id`,
    [projectId, resourceId],
  );
  const changed = relinkedLineages(rows);
  if (changed.length === 0) return;
  await client.query(
    `UPDATE history_changes h SET lineage = t.lineage
     FROM unnest($1::bigint[], $2::text[]) AS t(id, lineage) WHERE h.id = t.id`,
    [changed.map((row) => row.id), changed.map((row) => row.lineage)],
  );
}

export async function historyStats(
  session: PgSession,
): Promise<{ commits: number; changes: number; diffsRead: number }> {
  const row = await session.row<{ commits: string; changes: string; diffs_read: string }>(
    `SELECT (SELECT count(*) FROM history_commits WHERE project_id = $1) AS commits,
            (SELECT count(*) FROM history_changes WHERE project_id = $1) AS changes,
            (SELECT count(*) FROM history_commits
              WHERE project_id = $1 AND identifiers IS NOT NULL) AS diffs_read`,
    [session.projectId],
  );
  return {
    commits: Number(row?.commits ?? 0),
    changes: Number(row?.changes ?? 0),
    diffsRead: Number(row?.diffs_read ?? 0),
  };
}

/** The history store over one connection: commits, their file changes and words to code. */
export function pgHistory(session: PgSession): HistoryStore {
  return {
    ...pgCommitIdentifiers(session),
    ...pgCommitMessages(session),
    async listCommitShas(resourceId: string): Promise<string[]> {
      const rows = await session.rows<{ sha: string }>(
        "SELECT sha FROM history_commits WHERE project_id = $1 AND resource_id = $2 ORDER BY id",
        [session.projectId, resourceId],
      );
      return rows.map((row) => row.sha);
    },
    async oldestCommits(
      resourceId: string,
      count: number,
      beforeSeconds: number | null,
    ): Promise<string[]> {
      const rows = await session.rows<{ sha: string }>(
        `SELECT sha FROM history_commits WHERE project_id = $1 AND resource_id = $2 AND (
       id IN (SELECT id FROM history_commits WHERE project_id = $1 AND resource_id = $2
              ORDER BY committed_at, id LIMIT $3)
       OR committed_at < $4)`,
        [session.projectId, resourceId, count, beforeSeconds ?? -1],
      );
      return rows.map((row) => row.sha);
    },
    /** Adds and removes commits, follows renames, and records the head, in one transaction. */
    async writeHistory(batch: HistoryBatch): Promise<void> {
      const { projectId } = session;
      const { resourceId } = batch;
      await session.transaction(async (client) => {
        // Writers of one project's history take turns on its row (message statistics).
        await client.query("SELECT 1 FROM ctx_projects WHERE id = $1 FOR UPDATE", [projectId]);
        if (batch.remove.length > 0) {
          const [gone] = await rowsOf<{ commits: number; tokens: number }>(
            client,
            `WITH gone AS (DELETE FROM history_commits WHERE project_id = $1 AND resource_id = $2
                       AND sha = ANY($3::text[]) RETURNING message_length)
         SELECT count(*) AS commits, coalesce(sum(message_length), 0)::bigint AS tokens FROM gone`,
            [projectId, resourceId, batch.remove],
          );
          await addMessageStats(client, projectId, -(gone?.commits ?? 0), -(gone?.tokens ?? 0));
        }
        let commits = 0;
        let tokens = 0;
        for (const commit of batch.add) {
          const body = commit.body.slice(0, MAX_BODY_CHARS);
          const counts = countFields([commit.subject, body]);
          const [added] = await rowsOf<{ id: number }>(
            client,
            `INSERT INTO history_commits (project_id, resource_id, sha, parents, author, email, authored_at,
           committed_at, subject, body, file_count, message_length)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (project_id, resource_id, sha) DO NOTHING RETURNING id`,
            [
              projectId,
              resourceId,
              commit.sha,
              commit.parents.join(" "),
              commit.author,
              commit.email,
              commit.date,
              commit.committedAt,
              commit.subject,
              body,
              commit.changes.length,
              counts.length,
            ],
          );
          if (!added) continue; // stored already (a run that was cut short)
          commits++;
          tokens += counts.length;
          const terms = [...counts.terms];
          if (terms.length > 0) {
            await client.query(
              `INSERT INTO commit_terms (project_id, term, commit_id, tf_subject, tf_body, message_length)
           SELECT $1, term, $2, tf_subject, tf_body, $6
           FROM unnest($3::text[], $4::int[], $5::int[]) AS t(term, tf_subject, tf_body)`,
              [
                projectId,
                added.id,
                terms.map(([term]) => term),
                terms.map(([, c]) => c[0]),
                terms.map(([, c]) => c[1]),
                counts.length,
              ],
            );
          }
          // Files stored under a name this commit renames take the new name first.
          for (const change of commit.changes) {
            if (change.oldPath !== null && change.oldPath !== change.path) {
              await client.query(
                "UPDATE history_changes SET lineage = $1 WHERE project_id = $2 AND resource_id = $3 AND lineage = $4",
                [change.path, projectId, resourceId, change.oldPath],
              );
            }
          }
          if (commit.changes.length > 0) {
            await client.query(
              `INSERT INTO history_changes (commit_id, project_id, resource_id, path, old_path, lineage, added, removed)
           SELECT $1, $2, $3, path, old_path, path, added, removed
           FROM unnest($4::text[], $5::text[], $6::int[], $7::int[]) WITH ORDINALITY AS t(path, old_path, added, removed, n)
           ORDER BY n`,
              [
                added.id,
                projectId,
                resourceId,
                commit.changes.map((c) => c.path),
                commit.changes.map((c) => c.oldPath),
                commit.changes.map((c) => c.added),
                commit.changes.map((c) => c.removed),
              ],
            );
          }
        }
        await addMessageStats(client, projectId, commits, tokens);
        if (batch.relink) await relinkRenames(client, projectId, resourceId);
        if (batch.readAt !== null) {
          await client.query(
            `INSERT INTO history_heads (project_id, resource_id, head) VALUES ($1, $2, $3)
         ON CONFLICT (project_id, resource_id) DO UPDATE SET head = excluded.head`,
            [projectId, resourceId, batch.readAt],
          );
        }
      });
    },
    async historySpan(resourceId: string): Promise<HistorySpan> {
      const row = await session.row<{
        commits: number;
        first: string | null;
        last: string | null;
        head: string | null;
      }>(
        `SELECT (SELECT count(*) FROM history_commits WHERE project_id = $1 AND resource_id = $2) AS commits,
            (SELECT authored_at FROM history_commits WHERE project_id = $1 AND resource_id = $2
              ORDER BY committed_at, id LIMIT 1) AS first,
            (SELECT authored_at FROM history_commits WHERE project_id = $1 AND resource_id = $2
              ORDER BY committed_at DESC, id DESC LIMIT 1) AS last,
            (SELECT head FROM history_heads WHERE project_id = $1 AND resource_id = $2) AS head`,
        [session.projectId, resourceId],
      );
      return {
        commits: row?.commits ?? 0,
        readAt: row?.head ?? null,
        first: row?.first ?? null,
        last: row?.last ?? null,
      };
    },
    async fileActivity(
      resourceId: string,
      paths: readonly string[],
    ): Promise<Map<string, FileActivity>> {
      const rows = await session.rows<{
        path: string;
        commits: number;
        added: number;
        removed: number;
        lastChanged: string;
      }>(
        `SELECT c.lineage AS path, count(DISTINCT c.commit_id) AS commits,
            coalesce(sum(c.added), 0)::float8 AS added, coalesce(sum(c.removed), 0)::float8 AS removed,
            (array_agg(m.authored_at ORDER BY m.committed_at DESC, m.id DESC))[1] AS "lastChanged"
       FROM history_changes c JOIN history_commits m ON m.id = c.commit_id
      WHERE c.project_id = $1 AND c.resource_id = $2 AND c.lineage = ANY($3::text[])
      GROUP BY c.lineage`,
        [session.projectId, resourceId, [...new Set(paths)]],
      );
      const found = new Map<string, FileActivity>();
      const byPath = new Map(rows.map((row) => [row.path, row]));
      for (const path of new Set(paths)) {
        const row = byPath.get(path);
        if (!row || row.commits === 0) continue;
        found.set(path, {
          path,
          commits: row.commits,
          lastChanged: row.lastChanged,
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
      return session.rows<CoChange>(
        `SELECT other.lineage AS path, count(DISTINCT other.commit_id) AS together
       FROM history_changes mine
       JOIN history_commits m ON m.id = mine.commit_id AND m.file_count <= $1
       JOIN history_changes other ON other.commit_id = mine.commit_id
      WHERE mine.project_id = $2 AND mine.resource_id = $3 AND mine.lineage = $4
        AND other.lineage <> mine.lineage
      GROUP BY other.lineage
      ORDER BY together DESC, other.lineage COLLATE "C"
      LIMIT $5`,
        [maxFiles, session.projectId, resourceId, path, limit],
      );
    },
    async fileCommits(resourceId: string, path: string, limit: number): Promise<FileCommit[]> {
      return session.rows<FileCommit>(
        `SELECT m.sha, m.authored_at AS date, m.author, m.subject, c.path AS "pathThen", c.added, c.removed
       FROM history_changes c JOIN history_commits m ON m.id = c.commit_id
      WHERE c.project_id = $1 AND c.resource_id = $2 AND c.lineage = $3
      ORDER BY m.committed_at DESC, m.id DESC
      LIMIT $4`,
        [session.projectId, resourceId, path, limit],
      );
    },
    async getCommits(resourceId: string, shas: readonly string[]): Promise<CommitSummary[]> {
      return session.rows<CommitSummary>(
        `SELECT sha, authored_at AS date, author, subject, body FROM history_commits
      WHERE project_id = $1 AND resource_id = $2 AND sha = ANY($3::text[]) ORDER BY id`,
        [session.projectId, resourceId, shas],
      );
    },
    async commitTimes(resourceId: string): Promise<number[]> {
      const rows = await session.rows<{ time: number }>(
        "SELECT committed_at AS time FROM history_commits WHERE project_id = $1 AND resource_id = $2 ORDER BY committed_at",
        [session.projectId, resourceId],
      );
      return rows.map((row) => row.time);
    },
    async changeTimes(
      resourceId: string,
      paths: readonly string[],
      limit: number,
    ): Promise<Map<string, number[]>> {
      const rows = await session.rows<{ path: string; time: number }>(
        `SELECT lineage AS path, time FROM (
       SELECT c.lineage, m.committed_at AS time,
              row_number() OVER (PARTITION BY c.lineage ORDER BY m.committed_at DESC, m.id DESC) AS n
         FROM history_changes c JOIN history_commits m ON m.id = c.commit_id
        WHERE c.project_id = $1 AND c.resource_id = $2 AND c.lineage = ANY($3::text[])) ranked
      WHERE n <= $4 ORDER BY path COLLATE "C", time DESC`,
        [session.projectId, resourceId, [...new Set(paths)], limit],
      );
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
