import { lstatSync, realpathSync, type Stats, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import {
  CONFIG_FILE_MAX_BYTES,
  readRegularText,
  warnSkippedFile,
} from "../../core/read-regular-file.js";
import {
  emptySkipCounts,
  MAX_NAMED_SKIPS,
  type ResourceKind,
  recordSkip,
  type SecretFile,
  type SkipCounts,
  type SkippedFile,
  type SkipReason,
} from "../../core/types.js";
import { isSecretFile } from "../../secrets/secret-files.js";
import { visibleText } from "../../text/visible-text.js";
import { type GitListing, GitListingError, listGitFiles } from "./list-git.js";
import { isPathTooLong, walkFiles } from "./list-walk.js";
import {
  AGENT_CONFIG_FILES,
  hasBinaryExtension,
  inSkippedDirectory,
  SKIPPED_DIRECTORIES,
} from "./skip-rules.js";

export interface HydrationLimits {
  /** Files larger than this are skipped as too large. */
  readonly maxFileBytes: number;
  /** Once this many bytes are taken, further files are skipped. */
  readonly maxTotalBytes: number;
  /** Folder names skipped in addition to the built-in list. */
  readonly skipDirectories: readonly string[];
  /**
   * Index files that hold secrets (by name or content) like any other
   * (`[index] include_secrets`); by default they are skipped as "secret".
   */
  readonly includeSecrets: boolean;
}

export const DEFAULT_LIMITS: HydrationLimits = {
  maxFileBytes: 256 * 1024,
  maxTotalBytes: 1024 * 1024 * 1024,
  skipDirectories: [],
  includeSecrets: false,
};

/** A file worth reading, with what incremental indexing compares. */
export interface FileCandidate {
  readonly relPath: string;
  readonly absPath: string;
  readonly size: number;
  readonly mtimeMs: number;
}

export interface Discovery {
  readonly kind: ResourceKind;
  readonly files: FileCandidate[];
  readonly skipped: SkipCounts;
  /** Files skipped for their secret-file name (the content check comes when files are read). */
  readonly secretFiles: SecretFile[];
  /** The other skipped files by name, in the order they were met (see MAX_NAMED_SKIPS). */
  readonly skippedFiles: SkippedFile[];
  /**
   * Files, and folders that could not be listed (ending in `/`), whose path is
   * too long for the system to open, in path order: counted under "path-too-long".
   */
  readonly longPaths: string[];
}

/**
 * Lists the files of a resource root that are worth indexing: git's view for a
 * checkout, a .gitignore-honouring walk otherwise; then drops skipped folders,
 * `.ctxignore` matches, binary extensions, secret-file names (unless secrets
 * are included), links out of the root, non-files, paths too long to open and
 * files over the limits, counting each under its reason. Binary content and
 * secrets in content are detected later, when a file is read. With a `scope` (paths relative to the
 * root, files or folders), only what lies there is listed: a watcher's changes.
 */
export async function discoverFiles(
  root: string,
  limits: HydrationLimits,
  scope?: readonly string[],
): Promise<Discovery> {
  const skipped = emptySkipCounts();
  const extraSkips = new Set(limits.skipDirectories);
  const { git, broken } = await gitListing(root, scope);
  let kind: ResourceKind = "folder";
  let listed: string[];
  const longPaths: string[] = [];
  const skippedFiles: SkippedFile[] = [];
  if (git) {
    kind = "git";
    listed = git.files;
    skipped.ignored += git.ignored;
    skippedFiles.push(...namedIgnores(git.ignoredPaths));
    skipped.unreadable += git.unnamable + git.unreadable;
    longPaths.push(...git.tooLong);
  } else {
    // A checkout git cannot list stays one: its history is read from the commits, not the index.
    if (broken) kind = "git";
    const walk = walkFiles(
      root,
      (name) => SKIPPED_DIRECTORIES.has(name) || extraSkips.has(name),
      scope,
    );
    listed = walk.files;
    skipped.ignored += walk.ignored;
    skippedFiles.push(...namedIgnores(walk.ignoredPaths));
    skipped.unreadable += walk.unreadable;
    longPaths.push(...walk.tooLong);
  }
  const ctxIgnore = readCtxIgnore(root);
  const realRoot = realpathSync(root);
  const files: FileCandidate[] = [];
  const secretFiles: SecretFile[] = [];
  let totalBytes = 0;
  const skip = (reason: SkipReason, path: string, bytes: number | null = null): void =>
    recordSkip(skipped, skippedFiles, reason, path, bytes);
  for (const relPath of listed.sort()) {
    if (inSkippedDirectory(relPath, extraSkips) || ctxIgnore?.ignores(relPath)) {
      skip("ignored", relPath);
      continue;
    }
    if (AGENT_CONFIG_FILES.has(relPath)) {
      skip("agent-config", relPath);
      continue;
    }
    if (hasBinaryExtension(relPath)) {
      skip("binary", relPath);
      continue;
    }
    const absPath = join(root, relPath);
    const stats = statInsideRoot(absPath, realRoot);
    if (stats === "absent") continue;
    if (stats === "path-too-long") {
      longPaths.push(relPath); // counted with the folders, below
      continue;
    }
    if (typeof stats === "string") {
      skip(stats, relPath);
      continue;
    }
    if (!limits.includeSecrets && isSecretFile(relPath)) {
      skipped.secret++;
      secretFiles.push({ path: relPath, found: "file name" });
      continue;
    }
    if (stats.size > limits.maxFileBytes) {
      skip("too-large", relPath, stats.size);
      continue;
    }
    if (totalBytes + stats.size > limits.maxTotalBytes) {
      skip("over-total-limit", relPath, stats.size);
      continue;
    }
    totalBytes += stats.size;
    files.push({ relPath, absPath, size: stats.size, mtimeMs: stats.mtimeMs });
  }
  skipped["path-too-long"] += longPaths.length;
  longPaths.sort();
  return { kind, files, skipped, secretFiles, skippedFiles, longPaths };
}

/** The first of what git or the walk ignored, named under "ignored". */
function namedIgnores(paths: readonly string[]): SkippedFile[] {
  return paths
    .slice(0, MAX_NAMED_SKIPS)
    .map((path) => ({ reason: "ignored" as const, path, bytes: null }));
}

/**
 * git's listing of the root; `broken` when the root is a checkout git cannot
 * list, said once per root and process: its files are then walked like a
 * folder's (.gitignore honoured) rather than silently taken for one.
 */
async function gitListing(
  root: string,
  scope: readonly string[] | undefined,
): Promise<{ git: GitListing | null; broken: boolean }> {
  try {
    return { git: await listGitFiles(root, scope), broken: false };
  } catch (error) {
    if (!(error instanceof GitListingError)) throw error;
    if (!brokenCheckouts.has(root)) {
      brokenCheckouts.add(root);
      const hint = /index file|\.git\/index/.test(error.detail)
        ? "; `rm .git/index && git reset` rebuilds a damaged .git/index"
        : "";
      // git's words may quote the repository's own file names: shown, not obeyed.
      process.stderr.write(
        visibleText(
          `ctx: ${root}: git cannot list this checkout's files (${error.detail}): read as a plain folder (.gitignore honoured), its history still read${hint}\n`,
        ),
      );
    }
    return { git: null, broken: true };
  }
}

const brokenCheckouts = new Set<string>();

/**
 * Stats a listed path, following a symbolic link only when it stays inside the
 * root. "absent" is a path with no file to skip: one git still tracks but that
 * was deleted from the work tree (or vanished since it was listed), or a
 * submodule that is not checked out (git lists it as a folder).
 */
function statInsideRoot(
  absPath: string,
  realRoot: string,
): Stats | "outside-root" | "unreadable" | "ignored" | "path-too-long" | "absent" {
  let stats: Stats;
  try {
    stats = lstatSync(absPath);
  } catch (error) {
    if (isPathTooLong(error)) return "path-too-long";
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "absent" : "unreadable";
  }
  if (stats.isDirectory()) return "absent";
  if (stats.isSymbolicLink()) {
    let target: string;
    try {
      target = realpathSync(absPath);
    } catch {
      return "unreadable";
    }
    const rel = relative(realRoot, target);
    if (rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || rel.startsWith(sep)) {
      return "outside-root";
    }
    try {
      stats = statSync(target);
    } catch {
      return "unreadable";
    }
    // A link to a folder inside the root only repeats files that are indexed anyway.
    if (stats.isDirectory()) return "ignored";
  }
  return stats.isFile() ? stats : "unreadable";
}

/**
 * The root's `.ctxignore` rules; null when it has none. One that is not a
 * regular file inside the root (a FIFO, a link to /dev/zero or out of the
 * project) or is over the size bound is skipped with a warning: it must never
 * hang or stop indexing.
 */
export function readCtxIgnore(root: string): Ignore | null {
  const path = join(root, ".ctxignore");
  const read = readRegularText(path, { maxBytes: CONFIG_FILE_MAX_BYTES, root });
  if (!read.ok) {
    warnSkippedFile(path, read);
    return null;
  }
  return ignore().add(read.text);
}
