import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import type {
  BlamedCommit,
  CoChange,
  CommitSummary,
  FileActivity,
  FileCommit,
  HistoryBackend,
  IntroducingCommit,
  MessageMatch,
  TaskIdentifier,
  TemporalBackend,
} from "../core/history.js";
import { readRegularFile } from "../core/read-regular-file.js";
import type { Store } from "../core/store.js";
import type { LineSpan } from "../core/text-backend.js";
import {
  NO_CONTENT_PROGRAMS,
  repositoryDriverOverrides,
  SAFE_GIT_OPTIONS,
} from "../git/git-command.js";
import type { HistorySettings } from "./history-settings.js";
import { introducingCommit } from "./introducing-commit.js";
import {
  taskIdentifiers,
  VOCABULARY_WINDOW,
  type VocabularyWindow,
  vocabularyWindow,
} from "./task-identifiers.js";

const run = promisify(execFile);
const NOT_COMMITTED = "0".repeat(40);
const BLAME_LINE = /^([0-9a-f]{40}) (\d+) \d+/;
/** Blames kept per engine: a query blames a handful of ranges, an agent's session a few hundred. */
const MAX_CACHED_BLAMES = 2000;
/** Words-to-code windows kept per engine: one per root's current history read. */
const MAX_CACHED_WINDOWS = 16;
/** Files past this are not blamed: far over any size the index reads. */
const MAX_BLAMED_BYTES = 64 * 1024 * 1024;

/**
 * What an engine keeps between queries: blame results by file content and
 * history read (the same lines of the same file at the same HEAD blame alike),
 * and each history read's words-to-code window.
 */
export class HistoryCache {
  private readonly entries = new Map<string, BlamedCommit[]>();
  private readonly windows = new Map<string, Promise<VocabularyWindow>>();

  get(key: string): BlamedCommit[] | undefined {
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found;
  }

  set(key: string, value: BlamedCommit[]): void {
    this.entries.set(key, value);
    if (this.entries.size > MAX_CACHED_BLAMES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /** The window of a resource's history as read at `readAt`, loaded once. */
  window(key: string, load: () => Promise<VocabularyWindow>): Promise<VocabularyWindow> {
    let found = this.windows.get(key);
    if (!found) {
      // One history read per root is current; older reads are not asked for again.
      if (this.windows.size >= MAX_CACHED_WINDOWS) this.windows.clear();
      found = load();
      found.catch(() => this.windows.delete(key));
      this.windows.set(key, found);
    }
    return found;
  }
}

export interface HistoryRoot {
  readonly root: string;
  /** What the stored history was read at (HEAD and limits): part of the blame cache key. */
  readonly readAt: string;
}

/** The stored history plus `git blame` and `git show` on the roots, for strategies. */
export class GitTemporalBackend implements TemporalBackend {
  constructor(
    private readonly store: HistoryBackend,
    private readonly roots: ReadonlyMap<string, HistoryRoot>,
    private readonly coChangeMaxFiles: number,
    private readonly cache: HistoryCache,
  ) {}

  private readonly times = new Map<string, Promise<number[]>>();

  async taskIdentifiers(terms: readonly string[], limit: number): Promise<TaskIdentifier[]> {
    const found: TaskIdentifier[] = [];
    for (const [resourceId, { readAt }] of this.roots) {
      const window = this.cache.window(`${resourceId}\0${readAt}\0${this.coChangeMaxFiles}`, () =>
        this.store
          .recentCommitIdentifiers(resourceId, this.coChangeMaxFiles, VOCABULARY_WINDOW)
          .then(vocabularyWindow),
      );
      found.push(...taskIdentifiers(await window, terms, limit));
    }
    return found.sort((a, b) => b.score - a.score).slice(0, limit);
  }

  fileActivity(resourceId: string, paths: readonly string[]): Promise<Map<string, FileActivity>> {
    return this.store.fileActivity(resourceId, paths);
  }

  coChanges(resourceId: string, path: string, limit: number): Promise<CoChange[]> {
    return this.store.coChanges(resourceId, path, this.coChangeMaxFiles, limit);
  }

  filesOfMatchingCommits(
    resourceId: string,
    terms: readonly string[],
    commits: number,
  ): Promise<MessageMatch[]> {
    return this.store.filesOfMatchingCommits(resourceId, terms, this.coChangeMaxFiles, commits);
  }

  fileCommits(resourceId: string, path: string, limit: number): Promise<FileCommit[]> {
    return this.store.fileCommits(resourceId, path, limit);
  }

  commits(resourceId: string, shas: readonly string[]): Promise<CommitSummary[]> {
    return this.store.getCommits(resourceId, shas);
  }

  async changeAges(
    resourceId: string,
    paths: readonly string[],
    limit: number,
  ): Promise<Map<string, number[]>> {
    if (!this.roots.has(resourceId)) return new Map();
    const all = await this.commitTimes(resourceId);
    const changes = await this.store.changeTimes(resourceId, paths, limit);
    // Commits newer than a change, by binary search over the ascending times.
    const newerThan = (time: number) => {
      let low = 0;
      let high = all.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if ((all[middle] as number) <= time) low = middle + 1;
        else high = middle;
      }
      return all.length - low;
    };
    return new Map([...changes].map(([path, stamps]) => [path, stamps.map(newerThan)]));
  }

  async recentChangeShares(
    resourceId: string,
    paths: readonly string[],
    window: number,
  ): Promise<Map<string, number>> {
    const ages = await this.changeAges(resourceId, paths, window);
    const span = Math.min(window, (await this.commitTimes(resourceId)).length);
    const shares = new Map<string, number>();
    if (span === 0) return shares;
    for (const [path, list] of ages) {
      const recent = list.filter((age) => age < window).length;
      if (recent > 0) shares.set(path, recent / span);
    }
    return shares;
  }

  private commitTimes(resourceId: string): Promise<number[]> {
    let times = this.times.get(resourceId);
    if (!times) {
      times = this.store.commitTimes(resourceId);
      this.times.set(resourceId, times);
    }
    return times;
  }

  async blame(
    resourceId: string,
    path: string,
    startLine: number,
    endLine: number,
  ): Promise<BlamedCommit[]> {
    const root = this.roots.get(resourceId);
    if (!root) return [];
    // Gone since it was indexed, or now a pipe, a device or a link out: nothing to blame.
    const read = readRegularFile(join(root.root, path), {
      maxBytes: MAX_BLAMED_BYTES,
      root: root.root,
    });
    if (!read.ok) return [];
    const content = read.bytes;
    const hash = createHash("sha1").update(content).digest("hex");
    const key = `${resourceId}\0${path}\0${startLine}-${endLine}\0${hash}\0${root.readAt}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    let stdout: string;
    try {
      ({ stdout } = await run(
        "git",
        [
          ...SAFE_GIT_OPTIONS,
          // Blaming the work tree's file runs its clean filter: the repository's own are not run.
          ...(await repositoryDriverOverrides(root.root)),
          "blame",
          "--porcelain",
          "--no-textconv",
          "-L",
          `${startLine},${endLine}`,
          "--",
          path,
        ],
        { cwd: root.root, maxBuffer: 64 * 1024 * 1024 },
      ));
    } catch {
      return []; // not tracked, or the lines are past the end of the file
    }
    const blamed = countBlamedLines(stdout);
    this.cache.set(key, blamed);
    return blamed;
  }

  async introducedBy(
    resourceId: string,
    name: string,
    path: string,
  ): Promise<IntroducingCommit | null> {
    const root = this.roots.get(resourceId);
    return root ? introducingCommit(root.root, name, path) : null;
  }

  async patch(
    resourceId: string,
    sha: string,
    path: string,
    maxLines: number,
    around?: LineSpan,
  ): Promise<string> {
    const root = this.roots.get(resourceId);
    if (!root || !/^[0-9a-f]{40}$/.test(sha)) return "";
    try {
      const { stdout } = await run(
        "git",
        [
          ...SAFE_GIT_OPTIONS,
          "show",
          ...NO_CONTENT_PROGRAMS,
          "--format=",
          "--no-color",
          "--unified=3",
          sha,
          "--",
          `:(top)${path}`,
        ],
        { cwd: root.root, maxBuffer: 64 * 1024 * 1024 },
      );
      const lines = stdout.replace(/\n$/, "").split("\n");
      // The hunks, not the `diff --git`/index/---/+++ preamble.
      const start = lines.findIndex((line) => line.startsWith("@@"));
      const hunks = start < 0 ? [] : hunksAround(lines.slice(start), around);
      if (hunks.length <= maxLines) return hunks.join("\n");
      return `${hunks.slice(0, maxLines).join("\n")}\n… ${hunks.length - maxLines} more lines`;
    } catch {
      return "";
    }
  }
}

/** The hunks (each from its `@@` line) with those touching `around` first, in their order. */
function hunksAround(lines: readonly string[], around: LineSpan | undefined): string[] {
  if (!around) return [...lines];
  const touching: string[] = [];
  const rest: string[] = [];
  let into = rest;
  for (const line of lines) {
    const header = HUNK_HEADER.exec(line);
    if (header) {
      const from = Number(header[1]);
      const to = from + Math.max(Number(header[2] ?? "1"), 1) - 1;
      into = from <= around.to && to >= around.from ? touching : rest;
    }
    into.push(line);
  }
  return [...touching, ...rest];
}

/** A hunk's header: the new side's first line and length (`@@ -3,4 +5,6 @@`). */
const HUNK_HEADER = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

/**
 * Lines per commit from `git blame --porcelain`: each blamed line starts with
 * its commit's sha; a commit's first group also says its `filename` there.
 */
export function countBlamedLines(porcelain: string): BlamedCommit[] {
  type Counted = { lines: number; path: string; time: number; from: number; to: number };
  const counts = new Map<string, Counted>();
  let current: Counted | null = null;
  for (const line of porcelain.split("\n")) {
    const match = BLAME_LINE.exec(line);
    if (match) {
      const sha = match[1] as string;
      const then = Number(match[2]);
      current = counts.get(sha) ?? null;
      if (current) {
        current.lines++;
        current.from = Math.min(current.from, then);
        current.to = Math.max(current.to, then);
      } else {
        current = { lines: 1, path: "", time: 0, from: then, to: then };
        counts.set(sha, current);
      }
    } else if (current && line.startsWith("filename ")) {
      if (current.path === "") current.path = line.slice("filename ".length);
    } else if (current && line.startsWith("committer-time ")) {
      current.time = Number(line.slice("committer-time ".length));
    }
  }
  return [...counts.entries()]
    .filter(([sha]) => sha !== NOT_COMMITTED)
    .map(([sha, { lines, path, time, from, to }]) => ({
      sha,
      lines,
      pathThen: path,
      time,
      linesThen: { from, to },
    }))
    .sort((a, b) => b.lines - a.lines || (a.sha < b.sha ? -1 : 1));
}

/** The temporal backend over every git checkout whose history has been read; null when none has any. */
export async function temporalBackendFor(
  store: Pick<Store, "documents" | "history">,
  settings: HistorySettings,
  cache: HistoryCache,
): Promise<TemporalBackend | null> {
  if (!settings.enabled) return null;
  const roots = new Map<string, HistoryRoot>();
  for (const resource of await store.documents.listResources()) {
    if (resource.kind !== "git") continue;
    const span = await store.history.historySpan(resource.id);
    if (span.commits > 0 && span.readAt)
      roots.set(resource.id, { root: resource.root, readAt: span.readAt });
  }
  return roots.size === 0
    ? null
    : new GitTemporalBackend(store.history, roots, settings.coChangeMaxFiles, cache);
}
