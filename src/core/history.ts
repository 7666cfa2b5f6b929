/** Git history of a resource (the cold tier): commits, the files each changed, and queries over them. */
import type { LineSpan } from "./text-backend.js";

/** One file a commit changed, as git's numstat reports it. */
export interface FileChange {
  /** The path after the commit, relative to the resource's root. */
  readonly path: string;
  /** The path before, when the commit renamed the file; else null. */
  readonly oldPath: string | null;
  /** Lines added and removed; null for a binary file. */
  readonly added: number | null;
  readonly removed: number | null;
}

export interface CommitRecord {
  /** 40 hex digits. */
  readonly sha: string;
  readonly parents: readonly string[];
  readonly author: string;
  readonly email: string;
  /** Author date, ISO 8601 with the author's offset. */
  readonly date: string;
  /** Committer time in seconds since 1970: the order history is read in. */
  readonly committedAt: number;
  readonly subject: string;
  /** The message after its subject line, trimmed (cut at `MAX_BODY_CHARS` when stored). */
  readonly body: string;
  readonly changes: readonly FileChange[];
}

/** A stored body is cut to this: history fragments show a few lines of it. */
export const MAX_BODY_CHARS = 4000;

/** What a resource's stored history covers. */
export interface HistorySpan {
  readonly commits: number;
  /** HEAD and the limits the history was last read with; null until it has been. */
  readonly readAt: string | null;
  /** Author dates of the oldest and newest stored commits. */
  readonly first: string | null;
  readonly last: string | null;
}

/** How often and how lately a file changed (its history followed through renames). */
export interface FileActivity {
  /** The file's path now. */
  readonly path: string;
  readonly commits: number;
  /** Author date of its latest change. */
  readonly lastChanged: string;
  readonly linesAdded: number;
  readonly linesRemoved: number;
}

/** A file that changed in the same commits as another. */
export interface CoChange {
  readonly path: string;
  /** Commits (each of at most the size limit) that changed both files. */
  readonly together: number;
}

/** A file one of the commits whose messages match a query changed. */
export interface MessageMatch {
  /** The file's path now (renames followed). */
  readonly path: string;
  /** How well the commit's message matches (BM25, higher is better). */
  readonly score: number;
  /** How many files that commit changed. */
  readonly files: number;
  /** That commit's subject line. */
  readonly subject: string;
}

/** A commit that changed one file, with what it did to that file. */
export interface FileCommit {
  readonly sha: string;
  readonly date: string;
  readonly author: string;
  readonly subject: string;
  /** The file's path in that commit (its name then, before any later rename). */
  readonly pathThen: string;
  readonly added: number | null;
  readonly removed: number | null;
}

/** One run's change to a resource's stored history, written atomically. */
export interface HistoryBatch {
  readonly resourceId: string;
  /** Oldest first: each commit's renames are applied to the file names stored before it. */
  readonly add: readonly CommitRecord[];
  /** Commits HEAD no longer reaches (history rewritten) or past the configured limits. */
  readonly remove: readonly string[];
  /**
   * Recompute every stored file name through the renames, newest commit first:
   * needed when commits were not added in order on top of the stored ones.
   */
  readonly relink: boolean;
  /** HEAD and limits, recorded once the whole run is written: the next run starts from it. */
  readonly readAt: string | null;
}

/** Reading a resource's history: what strategies and ranking use. */
export interface HistoryBackend {
  historySpan(resourceId: string): Promise<HistorySpan>;
  /** Activity of each file that has any, by its current path. */
  fileActivity(resourceId: string, paths: readonly string[]): Promise<Map<string, FileActivity>>;
  /**
   * Files changed together with `path`, most often first, counting only commits
   * that changed at most `maxFiles` files (sweeping ones say nothing).
   */
  coChanges(resourceId: string, path: string, maxFiles: number, limit: number): Promise<CoChange[]>;
  /**
   * The files changed by the `commits` commits (of at most `maxFiles` files)
   * whose messages best match the terms, one row per commit and file.
   */
  filesOfMatchingCommits(
    resourceId: string,
    terms: readonly string[],
    maxFiles: number,
    commits: number,
  ): Promise<MessageMatch[]>;
  /** The commits that changed a file (followed through renames), newest first. */
  fileCommits(resourceId: string, path: string, limit: number): Promise<FileCommit[]>;
  /** Stored commits by sha (those not stored are left out). */
  getCommits(resourceId: string, shas: readonly string[]): Promise<CommitSummary[]>;
  /** Committer times of every stored commit, ascending. */
  commitTimes(resourceId: string): Promise<number[]>;
  /** Committer times of each file's latest `limit` changes (renames followed), newest first. */
  changeTimes(
    resourceId: string,
    paths: readonly string[],
    limit: number,
  ): Promise<Map<string, number[]>>;
  /**
   * The identifiers the diffs of the newest `limit` commits touched, newest
   * first: commits that are not merges, of at most `maxFiles` files, whose
   * diffs were read and are not sweeps.
   */
  recentCommitIdentifiers(
    resourceId: string,
    maxFiles: number,
    limit: number,
  ): Promise<CommitIdentifiers[]>;
}

/** An identifier a task's words lead to through the history, with the words that led to it. */
export interface TaskIdentifier {
  readonly name: string;
  readonly score: number;
  readonly words: readonly string[];
}

/** The identifiers one commit's diff touched. */
export interface CommitIdentifiers {
  readonly id: number;
  readonly identifiers: readonly string[];
  /** Subject and body, one line apart: the words associations are learned from. */
  readonly message: string;
}

/** What the index keeps of a resource's history, and how it is changed. */
export interface HistoryStore extends HistoryBackend {
  /**
   * Shas of the stored commits of a resource in the order they were stored
   * (what ties between commits of one second are broken by).
   */
  listCommitShas(resourceId: string): Promise<string[]>;
  /**
   * Shas of the `count` oldest stored commits, and of any committed before
   * `beforeSeconds` (null: no such bound): what falls out of the limits.
   */
  oldestCommits(resourceId: string, count: number, beforeSeconds: number | null): Promise<string[]>;
  /** Applies a batch in one transaction: either all of it is stored or none. */
  writeHistory(batch: HistoryBatch): Promise<void>;
  /** Shas of the newest `limit` stored commits whose diffs have not been read for identifiers. */
  commitsWithoutIdentifiers(resourceId: string, limit: number): Promise<string[]>;
  /**
   * Records what the diffs of these commits touched (null: a sweep, left out of
   * the words-to-code window), in one transaction.
   */
  setCommitIdentifiers(
    resourceId: string,
    commits: readonly { readonly sha: string; readonly identifiers: readonly string[] | null }[],
  ): Promise<void>;
}

/** A commit as fragments show it. */
export interface CommitSummary {
  readonly sha: string;
  readonly date: string;
  readonly author: string;
  readonly subject: string;
  readonly body: string;
}

/** Lines of a file (as it is now) that one commit last changed. */
export interface BlamedCommit {
  readonly sha: string;
  /** How many of the asked-for lines it last changed. */
  readonly lines: number;
  /** The file's path in that commit, from the top of the work tree. */
  readonly pathThen: string;
  /** Committer time, seconds since 1970. */
  readonly time: number;
  /** The first and last of those lines as numbered in that commit's version of the file. */
  readonly linesThen: LineSpan;
}

/** The commit that first wrote a name into a file (see `TemporalBackend.introducedBy`). */
export interface IntroducingCommit {
  readonly sha: string;
  /** The file's path in that commit, from the top of the work tree. */
  readonly pathThen: string;
  /** The line of the name in that commit's version of the file. */
  readonly around?: LineSpan;
}

/**
 * History as strategies read it (`Backends.temporal`): the stored history and
 * what only git can answer, line by line.
 */
export interface TemporalBackend {
  fileActivity(resourceId: string, paths: readonly string[]): Promise<Map<string, FileActivity>>;
  /** Co-changes within the configured commit size (`[history] co_change_max_files`). */
  coChanges(resourceId: string, path: string, limit: number): Promise<CoChange[]>;
  /** Files of the best-matching commits within the configured commit size. */
  filesOfMatchingCommits(
    resourceId: string,
    terms: readonly string[],
    commits: number,
  ): Promise<MessageMatch[]>;
  fileCommits(resourceId: string, path: string, limit: number): Promise<FileCommit[]>;
  commits(resourceId: string, shas: readonly string[]): Promise<CommitSummary[]>;
  /**
   * The commits that last changed lines `startLine`–`endLine` of the file as it
   * is in the working tree (git blame), most lines first; uncommitted lines are left out.
   */
  blame(
    resourceId: string,
    path: string,
    startLine: number,
    endLine: number,
  ): Promise<BlamedCommit[]>;
  /**
   * How many commits ago each of a file's latest `limit` changes was made (0:
   * the newest commit stored), newest first; files without history are left out.
   */
  changeAges(
    resourceId: string,
    paths: readonly string[],
    limit: number,
  ): Promise<Map<string, number[]>>;
  /**
   * For each file, the share of the newest `window` commits (all, when fewer
   * are stored) that changed it; files none of them changed are left out.
   */
  recentChangeShares(
    resourceId: string,
    paths: readonly string[],
    window: number,
  ): Promise<Map<string, number>>;
  /**
   * The hunks of a file's diff in a commit (three lines of context), cut to
   * `maxLines`; `path` is the file's path then, from the top of the work tree.
   * With `around` (lines of the commit's version), the hunks that touch those
   * lines come first.
   */
  patch(
    resourceId: string,
    sha: string,
    path: string,
    maxLines: number,
    around?: LineSpan,
  ): Promise<string>;
  /**
   * The commit that first wrote `name` into the working tree's file at `path`,
   * through the file's renames; null when none is found in time.
   */
  introducedBy(resourceId: string, name: string, path: string): Promise<IntroducingCommit | null>;
  /**
   * The project's identifiers the task's terms lead to: what past commits
   * whose messages use them changed (see task-identifiers.ts), best first.
   */
  taskIdentifiers(terms: readonly string[], limit: number): Promise<TaskIdentifier[]>;
}
