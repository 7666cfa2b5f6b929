import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { IntroducingCommit } from "../core/history.js";
import { NO_CONTENT_PROGRAMS, SAFE_GIT_OPTIONS } from "../git/git-command.js";

const run = promisify(execFile);

/**
 * How long the search through a file's history may take. `git log -S` reads
 * every version of the file: fmt's `base.h`, back through its renames across
 * 8,000 commits, takes about half a second; past this the question is
 * answered without the introducing commit.
 */
const SEARCH_MS = 5000;

/**
 * The commit that first wrote `name` into the file now at `path`, following
 * the file through its renames: the oldest commit that changed how often the
 * file holds the name (`git log --follow -S`), with the file's path in that
 * commit and the line of the name in its version. Null when git finds none,
 * fails, or takes longer than `SEARCH_MS`.
 */
export async function introducingCommit(
  root: string,
  name: string,
  path: string,
): Promise<IntroducingCommit | null> {
  let stdout: string;
  try {
    ({ stdout } = await run(
      "git",
      [
        ...SAFE_GIT_OPTIONS,
        "log",
        ...NO_CONTENT_PROGRAMS,
        "--follow",
        "--format=%x00%H",
        "--name-only",
        `-S${name}`,
        "--",
        // The path as written: a file named `:(exclude)…` is a file, not pathspec magic.
        `:(top,literal)${path}`,
      ],
      { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: SEARCH_MS },
    ));
  } catch {
    return null;
  }
  // Newest first: the last record is the oldest commit, "\0SHA\n\nPATH".
  const oldest = stdout.split("\0").at(-1)?.trim().split("\n") ?? [];
  const sha = oldest[0] ?? "";
  const pathThen = oldest.at(-1) ?? "";
  if (!/^[0-9a-f]{40}$/.test(sha) || pathThen === "" || pathThen === sha) return null;
  const line = await lineOf(root, sha, pathThen, name);
  return { sha, pathThen, ...(line > 0 ? { around: { from: line, to: line } } : {}) };
}

/** The first line (1-based) of the file in that commit holding `name`; 0 when none. */
async function lineOf(root: string, sha: string, path: string, name: string): Promise<number> {
  try {
    const { stdout } = await run(
      "git",
      [...SAFE_GIT_OPTIONS, "show", ...NO_CONTENT_PROGRAMS, `${sha}:${path}`],
      { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: SEARCH_MS },
    );
    return stdout.split("\n").findIndex((text) => text.includes(name)) + 1;
  } catch {
    return 0;
  }
}
