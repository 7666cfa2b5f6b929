import type { HistoryStore, MessageMatch } from "../../core/history.js";
import { bm25Sql, queryTokens } from "./bm25.js";
import type { PgSession, Queryable } from "./pg-session.js";

// Commit messages searched by word, ranked as the SQLite store's commit_messages
// full-text table ranks them: BM25 over subject and body from an inverted index.

/** A subject says what a commit is for; its body, how (the SQLite store's weights). */
const SUBJECT_WEIGHT = 2;
const BODY_WEIGHT = 1;

const COMMIT_TERMS = {
  table: "commit_terms",
  id: "commit_id",
  tf: ["tf_subject", "tf_body"],
  length: "message_length",
  rows: "commit_messages",
  tokens: "commit_tokens",
} as const;

export async function addMessageStats(
  client: Queryable,
  projectId: number,
  commits: number,
  tokens: number,
): Promise<void> {
  if (commits === 0 && tokens === 0) return;
  await client.query(
    "UPDATE ctx_projects SET commit_messages = commit_messages + $2, commit_tokens = commit_tokens + $3 WHERE id = $1",
    [projectId, commits, tokens],
  );
}

/** The history store's search of commit messages, over one connection. */
export function pgCommitMessages(session: PgSession): Pick<HistoryStore, "filesOfMatchingCommits"> {
  return {
    /**
     * The files changed by the `commits` best-matching commits of the project (BM25
     * over subject and body, weighted as the SQLite store does), of this resource
     * and of at most `maxFiles` files.
     */
    async filesOfMatchingCommits(
      resourceId: string,
      terms: readonly string[],
      maxFiles: number,
      commits: number,
    ): Promise<MessageMatch[]> {
      if (terms.length === 0 || commits <= 0) return [];
      const tokens = queryTokens(terms);
      if (tokens.length === 0) return [];
      return session.rows<MessageMatch>(
        `SELECT c.lineage AS path, hits.score, m.file_count AS files, m.subject
       FROM (${bm25Sql(COMMIT_TERMS)} ORDER BY score DESC, id LIMIT $5) AS hits
       JOIN history_commits m ON m.id = hits.id AND m.resource_id = $6 AND m.file_count <= $7
       JOIN history_changes c ON c.commit_id = hits.id
      ORDER BY hits.score DESC, c.lineage COLLATE "C", hits.id`,
        [session.projectId, tokens, SUBJECT_WEIGHT, BODY_WEIGHT, commits, resourceId, maxFiles],
      );
    },
  };
}
