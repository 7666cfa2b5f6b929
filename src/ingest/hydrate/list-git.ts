import { execFile } from "node:child_process";
import { promisify } from "node:util";

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
}

/**
 * Lists a git checkout's files the way git sees them. Returns null when the root
 * is not inside a git work tree or git cannot run, so the caller can walk instead.
 */
export async function listGitFiles(root: string): Promise<GitListing | null> {
  try {
    // Tracked files, with those of checked-out submodules (git lists only tracked
    // ones there), then untracked files that are not ignored.
    const tracked = await git(root, ["ls-files", "--cached", "--recurse-submodules", "-z"]).catch(
      () => git(root, ["ls-files", "--cached", "-z"]),
    );
    const untracked = await git(root, ["ls-files", "--others", "--exclude-standard", "-z"]);
    const ignored = await git(root, [
      "ls-files",
      "--others",
      "--ignored",
      "--exclude-standard",
      "--directory",
      "--no-empty-directory",
      "-z",
    ]);
    // --cached lists a file once per merge stage during a conflict.
    const files = [...new Set([...splitNul(tracked), ...splitNul(untracked)])];
    // Our own index folder is not something the user ignored.
    const ignoredEntries = splitNul(ignored).filter(
      (entry) => entry !== ".ctx/" && !entry.startsWith(".ctx/"),
    );
    return { files, ignored: ignoredEntries.length };
  } catch {
    return null;
  }
}

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run("git", ["-c", "core.quotepath=off", ...args], {
    cwd,
    maxBuffer: MAX_OUTPUT,
    encoding: "utf8",
  });
  return stdout;
}

function splitNul(output: string): string[] {
  return output.split("\0").filter((entry) => entry.length > 0);
}
