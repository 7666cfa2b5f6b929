import { isUtf8 } from "node:buffer";
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { OWN_PROCESS_GROUP, SAFE_GIT_OPTIONS } from "../../git/git-command.js";
import { workTreeTop } from "../../git/work-tree-top.js";
import { isPathTooLong } from "./list-walk.js";

const run = promisify(execFile);
/** File lists of repositories with hundreds of thousands of files run to tens of MB. */
const MAX_OUTPUT = 512 * 1024 * 1024;

export interface GitListing {
  /**
   * Tracked (submodules' included) and untracked-but-not-ignored files, relative
   * to the root, `/`-separated.
   */
  readonly files: string[];
  /** Entries git ignores (a fully ignored folder counts once). */
  readonly ignored: number;
  /** Those entries (a folder ends in `/`), as git lists them. */
  readonly ignoredPaths: string[];
  /** Files whose names are not UTF-8: paths here are text, so they cannot be indexed. */
  readonly unnamable: number;
  /** Folders git could not open to list (a folder counts once), other than those below. */
  readonly unreadable: number;
  /** Folders git could not open for their path's length (relative, ending in `/`). */
  readonly tooLong: string[];
}

/** The root is inside a git work tree, but git cannot list its files (a damaged `.git/index`, say). */
export class GitListingError extends Error {
  constructor(
    readonly root: string,
    /** git's own first line, or what failed. */
    readonly detail: string,
  ) {
    super(`git cannot list the files of ${root}: ${detail}`);
  }
}

/**
 * Lists a git checkout's files the way git sees them. Returns null when the root
 * is not inside a git work tree or git cannot run, so the caller can walk
 * instead; throws GitListingError when it is a work tree git cannot list.
 */
export async function listGitFiles(
  root: string,
  scope?: readonly string[],
): Promise<GitListing | null> {
  // Literal pathspecs: a changed file's name may hold `*` or `:`; a folder names all below it.
  const only = scope ? ["--", ...scope.map((path) => `:(literal)${path}`)] : [];
  try {
    // Tracked and untracked-but-not-ignored files in one git start (`-t` tags
    // each entry), and apart from it the ignored entries: the listings are
    // independent, so they run at once.
    const [listed, ignored] = await Promise.all([
      git(root, ["ls-files", "--cached", "--others", "--exclude-standard", "-t", "-z", ...only]),
      // A scoped listing (a few changed paths) does not recount what the last full run counted.
      scope
        ? Buffer.alloc(0)
        : gitOut(root, [
            "ls-files",
            "--others",
            "--ignored",
            "--exclude-standard",
            "--directory",
            "--no-empty-directory",
            "-z",
          ]),
    ]);
    const entries = taggedEntries(listed.stdout);
    // A submodule is tracked as one entry; the files of a checked-out one come
    // from its own index, which only `--cached --recurse-submodules` reads.
    const tracked = declaresSubmodules(root)
      ? await gitOut(root, ["ls-files", "--cached", "--recurse-submodules", "-z", ...only]).then(
          (output) => namesIn(splitNulBytes(output)),
          () => entries.tracked,
        )
      : entries.tracked;
    // --cached lists a file once per merge stage during a conflict.
    const files = [...new Set([...tracked.names, ...entries.untracked.names])];
    const unnamable = new Set([...tracked.unnamable, ...entries.untracked.unnamable]).size;
    // Our own index folder is not something the user ignored.
    const ignoredEntries = splitNulBytes(ignored)
      .map((entry) => entry.toString("utf8"))
      .filter((entry) => !entry.startsWith(".ctx/"));
    const unopened = unopenedFolders(root, listed.stderr);
    return {
      files,
      ignored: ignoredEntries.length,
      ignoredPaths: ignoredEntries,
      unnamable,
      ...unopened,
    };
  } catch (error) {
    if (await insideWorkTree(root)) {
      const stderr = (error as { stderr?: Buffer | string }).stderr?.toString().trim() ?? "";
      const detail = stderr.split("\n").find((line) => line.startsWith("fatal:")) ?? stderr;
      throw new GitListingError(root, detail.split("\n")[0] || (error as Error).message);
    }
    return null;
  }
}

/** Whether git sees the root as part of a work tree (which it can tell without its index). */
async function insideWorkTree(root: string): Promise<boolean> {
  try {
    return (
      (await gitOut(root, ["rev-parse", "--is-inside-work-tree"])).toString().trim() === "true"
    );
  } catch {
    return false;
  }
}

const UNOPENED = "warning: could not open directory '";

/**
 * The folders git warned it could not open while listing, by why: a path too
 * long for the system, or anything else (no permission, gone meanwhile).
 */
function unopenedFolders(
  root: string,
  stderr: Buffer,
): { readonly unreadable: number; readonly tooLong: string[] } {
  const tooLong: string[] = [];
  let unreadable = 0;
  // git's message, untranslated (LC_ALL=C below); the path is as git read it, relative to the root.
  for (const line of stderr.toString("utf8").split("\n")) {
    if (!line.startsWith(UNOPENED)) continue;
    const rest = line.slice(UNOPENED.length);
    const whole = /^(.*)': [^']*$/.exec(rest);
    if (!whole) {
      // git cuts its messages at 4 KB: only a path that long is cut. Named by the
      // deepest folder the message holds whole, the one what was not listed lies in.
      tooLong.push(rest.slice(0, rest.lastIndexOf("/") + 1));
      continue;
    }
    const folder = whole[1] as string;
    try {
      readdirSync(join(root, folder));
    } catch (error) {
      if (isPathTooLong(error)) {
        tooLong.push(folder.endsWith("/") ? folder : `${folder}/`);
        continue;
      }
    }
    unreadable++;
  }
  return { unreadable, tooLong };
}

/** Names as git wrote them: bytes, since a name need not be UTF-8. */
async function gitOut(cwd: string, args: string[]): Promise<Buffer> {
  return (await git(cwd, args)).stdout;
}

async function git(cwd: string, args: string[]): Promise<{ stdout: Buffer; stderr: Buffer }> {
  return run("git", [...SAFE_GIT_OPTIONS, "-c", "core.quotepath=off", ...args], {
    cwd,
    maxBuffer: MAX_OUTPUT,
    encoding: "buffer",
    env: { ...process.env, LC_ALL: "C" },
    ...OWN_PROCESS_GROUP,
  });
}

/**
 * Whether the work tree around the root has a `.gitmodules` (at the root or
 * any folder above it, up to the top of the work tree): git reads submodules
 * only from there.
 */
export function declaresSubmodules(root: string): boolean {
  const top = workTreeTop(root) ?? root;
  for (let folder = root; ; folder = dirname(folder)) {
    if (existsSync(join(folder, ".gitmodules"))) return true;
    if (folder === top || dirname(folder) === folder) return false;
  }
}

/** Paths as text, and (latin1, to be counted) those that are not UTF-8 and so cannot be. */
interface Names {
  readonly names: string[];
  readonly unnamable: string[];
}

function namesIn(entries: readonly Buffer[]): Names {
  const names: string[] = [];
  const unnamable: string[] = [];
  for (const entry of entries) {
    if (isUtf8(entry)) names.push(entry.toString("utf8"));
    else unnamable.push(entry.toString("latin1"));
  }
  return { names, unnamable };
}

/**
 * Splits `ls-files -t -z` output: `TAG NAME`, where the tag `?` marks an
 * untracked file and a letter a tracked one.
 */
function taggedEntries(output: Buffer): { readonly tracked: Names; readonly untracked: Names } {
  // Decoded once when every name is UTF-8, as nearly always: a buffer per
  // name costs a 200,000-file checkout a few hundred milliseconds.
  if (!isUtf8(output)) return taggedBuffers(output);
  const tracked: string[] = [];
  const untracked: string[] = [];
  for (const entry of output.toString("utf8").split("\0")) {
    if (entry.length < 3) continue;
    (entry[0] === "?" ? untracked : tracked).push(entry.slice(2));
  }
  const none: string[] = [];
  return {
    tracked: { names: tracked, unnamable: none },
    untracked: { names: untracked, unnamable: none },
  };
}

/** taggedEntries for output holding a name that is not UTF-8: split as bytes. */
function taggedBuffers(output: Buffer): ReturnType<typeof taggedEntries> {
  const tracked: Buffer[] = [];
  const untracked: Buffer[] = [];
  for (const entry of splitNulBytes(output)) {
    if (entry.length < 3) continue;
    (entry[0] === 0x3f /* ? */ ? untracked : tracked).push(entry.subarray(2));
  }
  return { tracked: namesIn(tracked), untracked: namesIn(untracked) };
}

/** The entries of git's `-z` output, as bytes. */
export function splitNulBytes(output: Buffer): Buffer[] {
  const names: Buffer[] = [];
  let from = 0;
  for (let end = output.indexOf(0); end !== -1; end = output.indexOf(0, from)) {
    if (end > from) names.push(output.subarray(from, end));
    from = end + 1;
  }
  if (from < output.length) names.push(output.subarray(from));
  return names;
}
