import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  OWN_PROCESS_GROUP,
  repositoryDriverOverrides,
  SAFE_GIT_OPTIONS,
} from "../../git/git-command.js";
import { workTreeTop } from "../../git/work-tree-top.js";
import { declaresSubmodules, splitNulBytes } from "./list-git.js";

const run = promisify(execFile);
/** A checkout with hundreds of thousands of untracked files lists them all. */
const MAX_OUTPUT = 512 * 1024 * 1024;

/**
 * A digest of a git checkout's state as git sees it: HEAD, every file that
 * differs from HEAD or the index (staged, modified, deleted, unmerged), every
 * untracked file, and the size, modification time and inode of each such file
 * and of the root's `.ctxignore` (which git itself may ignore).
 * Two equal digests mean no file under the root changed in between, as far
 * as git can tell: a tracked file git takes for unchanged still has the
 * content of the same HEAD and index, and any other file was listed and
 * compared by its own stat. git does the per-file work (in parallel, in C),
 * which is why a refresh asks it first: at 200,000 files this costs under a
 * second where listing and comparing every file costs several.
 *
 * Null when the root is not in a git work tree, declares submodules, or git
 * cannot say: the caller then compares every file. Files marked
 * assume-unchanged are invisible here, as they are to git.
 */
export async function readTreeState(root: string): Promise<string | null> {
  const top = workTreeTop(root);
  // git runs status in each submodule too, where that one's own config rules.
  if (top === null || declaresSubmodules(root)) return null;
  let stdout: Buffer;
  try {
    ({ stdout } = await run(
      "git",
      [
        ...SAFE_GIT_OPTIONS,
        // status reads a file whose stat git cannot trust through its clean filter.
        ...(await repositoryDriverOverrides(root)),
        // Never rewrite .git/index (its cached stat data) as a side effect.
        "--no-optional-locks",
        "status",
        "--porcelain=v2",
        "--branch",
        "--untracked-files=all",
        "--no-renames",
        "-z",
        "--",
        ".",
      ],
      {
        cwd: root,
        encoding: "buffer",
        maxBuffer: MAX_OUTPUT,
        env: { ...process.env, LC_ALL: "C" },
        ...OWN_PROCESS_GROUP,
      },
    ));
  } catch {
    return null;
  }
  const hash = createHash("sha256").update(stdout);
  const stamp = (path: string | Buffer) => {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    hash.update(stats ? `\0${stats.size} ${stats.mtimeMs} ${stats.ino}` : "\0-");
  };
  // Paths in git's status are relative to the top of the work tree.
  const topBytes = Buffer.from(`${top}/`);
  // Bytes, not text: a listed name need not be UTF-8.
  for (const path of listedPaths(stdout)) stamp(Buffer.concat([topBytes, path]));
  // ctx's own ignore file, which git may be told to ignore.
  stamp(join(root, ".ctxignore"));
  return hash.digest("hex");
}

/** Fields before the path in porcelain v2 entries, renames off: changed, unmerged. */
const FIELDS_BEFORE_PATH: Readonly<Record<string, number>> = { "1": 8, u: 10 };

/**
 * The paths `status --porcelain=v2 --no-renames -z` names, as bytes: `1` and
 * `u` entries after their fixed fields, `?` entries after the tag.
 */
function* listedPaths(output: Buffer): Generator<Buffer> {
  for (const entry of splitNulBytes(output)) {
    const tag = String.fromCharCode(entry[0] ?? 0);
    if (tag === "?") {
      yield entry.subarray(2);
      continue;
    }
    const fields = FIELDS_BEFORE_PATH[tag];
    if (fields === undefined) continue; // a `#` header
    let at = 0;
    for (let field = 0; field < fields && at !== -1; field++) {
      const space = entry.indexOf(0x20, at);
      at = space === -1 ? -1 : space + 1;
    }
    if (at !== -1) yield entry.subarray(at);
  }
}
