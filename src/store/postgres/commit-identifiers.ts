import type { CommitIdentifiers, HistoryStore } from "../../core/history.js";
import { namesOf, SWEEP } from "../commit-identifier-rows.js";
import type { PgSession } from "./pg-session.js";

// What commits' diffs touched (migration 4): NULL until a commit's diff is read,
// "*" for a sweep (see MAX_COMMIT_IDENTIFIERS), else the names joined by spaces.

/** The history store's words-to-code records of commits, over one connection. */
export function pgCommitIdentifiers(
  session: PgSession,
): Pick<
  HistoryStore,
  "commitsWithoutIdentifiers" | "setCommitIdentifiers" | "recentCommitIdentifiers"
> {
  return {
    async commitsWithoutIdentifiers(resourceId: string, limit: number): Promise<string[]> {
      const rows = await session.rows<{ sha: string }>(
        `SELECT sha FROM (SELECT id, sha, committed_at, identifiers FROM history_commits
                       WHERE project_id = $1 AND resource_id = $2
                       ORDER BY committed_at DESC, id DESC LIMIT $3) AS newest
      WHERE identifiers IS NULL ORDER BY committed_at DESC, id DESC`,
        [session.projectId, resourceId, limit],
      );
      return rows.map((row) => row.sha);
    },
    async setCommitIdentifiers(
      resourceId: string,
      commits: readonly { readonly sha: string; readonly identifiers: readonly string[] | null }[],
    ): Promise<void> {
      if (commits.length === 0) return;
      await session.transaction(async (client) => {
        await client.query(
          `UPDATE history_commits m SET identifiers = t.identifiers
         FROM unnest($3::text[], $4::text[]) AS t(sha, identifiers)
        WHERE m.project_id = $1 AND m.resource_id = $2 AND m.sha = t.sha`,
          [
            session.projectId,
            resourceId,
            commits.map((commit) => commit.sha),
            commits.map((commit) =>
              commit.identifiers === null ? SWEEP : commit.identifiers.join(" "),
            ),
          ],
        );
      });
    },
    async recentCommitIdentifiers(
      resourceId: string,
      maxFiles: number,
      limit: number,
    ): Promise<CommitIdentifiers[]> {
      const rows = await session.rows<{
        id: string;
        identifiers: string;
        subject: string;
        body: string;
      }>(
        `SELECT id, identifiers, subject, body FROM history_commits
      WHERE project_id = $1 AND resource_id = $2 AND file_count <= $3
        AND position(' ' in parents) = 0 AND identifiers IS NOT NULL AND identifiers <> '${SWEEP}'
      ORDER BY committed_at DESC, id DESC LIMIT $4`,
        [session.projectId, resourceId, maxFiles, limit],
      );
      return rows.map((row) => ({
        id: Number(row.id),
        identifiers: namesOf(row.identifiers),
        message: `${row.subject}\n${row.body}`,
      }));
    },
  };
}
