import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * What every git run of ctx starts with. A checkout's own `.git/config` comes
 * with the folder (a tarball, a shared volume, a copied work tree), and git
 * runs programs it names: `core.fsmonitor` on `ls-files`, among others.
 */
export const SAFE_GIT_OPTIONS: readonly string[] = ["-c", "core.fsmonitor=false"];

/**
 * Spawn options of every git run during indexing: git gets its own process
 * group, so a terminal's Ctrl-C reaches ctx alone, which then stops git
 * through the run's abort signal and keeps what it wrote. A git killed by the
 * same keystroke would fail first and look like a broken repository (the
 * history read so far taken for gone, the listing failed).
 */
export const OWN_PROCESS_GROUP = { detached: true } as const;

/**
 * For commands that read file contents (`log -p`, `show`, `blame`): never
 * convert them with programs a diff driver names, nor hand them to an
 * external diff. `blame` takes only the first.
 */
export const NO_CONTENT_PROGRAMS: readonly string[] = ["--no-textconv", "--no-ext-diff"];

/** Keys of a driver that name a program git would run on file contents. */
const DRIVER_PROGRAMS = /^(filter|diff|merge)\..+\.(clean|smudge|process|textconv|command|driver)$/;

/**
 * `-c KEY=` for each filter or diff driver program the repository's own
 * config (local or worktree scope) sets: `blame` of a work-tree file runs its
 * clean filter, and `.gitattributes` in the tree picks the driver. The user's
 * own drivers (global or system, such as git-lfs) are kept.
 */
export async function repositoryDriverOverrides(cwd: string): Promise<string[]> {
  let stdout: string;
  try {
    ({ stdout } = await run(
      "git",
      [
        ...SAFE_GIT_OPTIONS,
        "config",
        "--show-scope",
        "-z",
        "--get-regexp",
        "^(filter|diff|merge)\\.",
      ],
      { cwd, maxBuffer: 4 * 1024 * 1024, ...OWN_PROCESS_GROUP },
    ));
  } catch {
    // No such keys (git exits 1), or no config to read: nothing to override.
    return [];
  }
  const overrides: string[] = [];
  // NUL-separated pairs: the scope, then "key\nvalue".
  const fields = stdout.split("\0");
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const scope = fields[i];
    const key = (fields[i + 1] ?? "").split("\n", 1)[0] ?? "";
    if ((scope === "local" || scope === "worktree") && DRIVER_PROGRAMS.test(key))
      overrides.push("-c", `${key}=`);
  }
  return overrides;
}
