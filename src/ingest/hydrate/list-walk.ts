import { isUtf8 } from "node:buffer";
import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import ignore, { type Ignore } from "ignore";
import {
  CONFIG_FILE_MAX_BYTES,
  readRegularText,
  warnSkippedFile,
} from "../../core/read-regular-file.js";

export interface WalkListing {
  /** Files and symbolic links, relative to the root, `/`-separated. */
  readonly files: string[];
  /** Entries excluded by .gitignore files or skipped folders (a folder counts once). */
  readonly ignored: number;
  /** What was ignored, in listing order (a folder ends in `/` and counts once). */
  readonly ignoredPaths: string[];
  /**
   * Folders that could not be read, and entries whose names are not UTF-8 (paths
   * here are text, so they cannot be indexed; a folder counts once).
   */
  readonly unreadable: number;
  /** Folders whose path is too long to open (relative, ending in `/`): not counted as unreadable. */
  readonly tooLong: string[];
}

export interface IgnoreLevel {
  /** Folder of the .gitignore, relative to the root, "" for the root. */
  readonly base: string;
  readonly rules: Ignore;
}

/**
 * Walks a folder that is not a git checkout, honouring every .gitignore on the
 * way down as git would (rules are relative to the folder that holds them).
 * Skipped directories are not entered; symbolic links are listed, not followed.
 */
export function walkFiles(
  root: string,
  skipDirectory: (name: string) => boolean,
  scope?: readonly string[],
): WalkListing {
  const files: string[] = [];
  let ignored = 0;
  const ignoredPaths: string[] = [];
  let unreadable = 0;
  const tooLong: string[] = [];

  const visit = (relDir: string, levels: readonly IgnoreLevel[]): void => {
    let raw: Dirent<Buffer>[];
    try {
      raw = readdirSync(join(root, relDir), { withFileTypes: true, encoding: "buffer" });
    } catch (error) {
      if (isPathTooLong(error)) tooLong.push(`${relDir}/`);
      else unreadable++;
      return;
    }
    const own = readGitignore(root, relDir);
    const active = own ? [...levels, own] : levels;
    const entries: { name: string; entry: Dirent<Buffer> }[] = [];
    for (const entry of raw) {
      if (isUtf8(entry.name)) entries.push({ name: entry.name.toString("utf8"), entry });
      else unreadable++;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const { name, entry } of entries) {
      const relPath = relDir === "" ? name : `${relDir}/${name}`;
      const isDirectory = entry.isDirectory();
      // Our own index folder is neither indexed nor counted as ignored.
      if (isDirectory && relPath === ".ctx") continue;
      if ((isDirectory && skipDirectory(name)) || isIgnored(active, relPath, isDirectory)) {
        ignored++;
        ignoredPaths.push(isDirectory ? `${relPath}/` : relPath);
        continue;
      }
      if (isDirectory) visit(relPath, active);
      else files.push(relPath);
    }
  };
  if (!scope) {
    visit("", []);
    return { files, ignored, ignoredPaths, unreadable, tooLong };
  }
  // Only the named paths (files or folders), judged by the rules of the folders above them.
  const listed = new Set<string>();
  for (const relPath of scope) {
    const levels = levelsAbove(root, relPath, skipDirectory);
    if (levels === null) continue;
    let isDirectory: boolean;
    try {
      isDirectory = lstatSync(join(root, relPath)).isDirectory();
    } catch {
      continue; // gone: nothing to list
    }
    if (isDirectory && (relPath === ".ctx" || skipDirectory(relPath.split("/").at(-1) ?? "")))
      continue;
    if (isIgnored(levels, relPath, isDirectory)) continue;
    if (isDirectory) visit(relPath, levels);
    else if (!listed.has(relPath)) files.push(relPath);
    listed.add(relPath);
  }
  return { files: [...new Set(files)], ignored, ignoredPaths, unreadable, tooLong };
}

/** True for the error of a path past the system's limit (PATH_MAX), which no read of it can get past. */
export function isPathTooLong(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === "ENAMETOOLONG";
}

/**
 * The .gitignore rules that apply inside the folder holding `relPath`, or null
 * when a folder on the way is skipped or ignored (so nothing below it is listed).
 */
function levelsAbove(
  root: string,
  relPath: string,
  skipDirectory: (name: string) => boolean,
): IgnoreLevel[] | null {
  const segments = relPath.split("/");
  const levels: IgnoreLevel[] = [];
  let relDir = "";
  for (let i = 0; i < segments.length - 1; i++) {
    const own = readGitignore(root, relDir);
    if (own) levels.push(own);
    const name = segments[i] as string;
    relDir = relDir === "" ? name : `${relDir}/${name}`;
    if (relDir === ".ctx" || skipDirectory(name) || isIgnored(levels, relDir, true)) return null;
  }
  const own = readGitignore(root, relDir);
  if (own) levels.push(own);
  return levels;
}

/**
 * The rules of the `.gitignore` in `relDir`; null when there is none. One that
 * is not a regular file inside the root, or is over the size bound, is skipped
 * with a warning (it is listed, and counted, as an unreadable file too).
 */
export function readGitignore(root: string, relDir: string): IgnoreLevel | null {
  const path = join(root, relDir, ".gitignore");
  const read = readRegularText(path, { maxBytes: CONFIG_FILE_MAX_BYTES, root });
  if (!read.ok) {
    warnSkippedFile(path, read);
    return null;
  }
  return { base: relDir, rules: ignore().add(read.text) };
}

export function isIgnored(
  levels: readonly IgnoreLevel[],
  relPath: string,
  isDirectory: boolean,
): boolean {
  // Deeper files decide last, as in git: a nested "!keep" re-includes what a parent ignored.
  let verdict = false;
  for (const level of levels) {
    const local = level.base === "" ? relPath : relPath.slice(level.base.length + 1);
    const result = level.rules.test(isDirectory ? `${local}/` : local);
    if (result.ignored) verdict = true;
    else if (result.unignored) verdict = false;
  }
  return verdict;
}
