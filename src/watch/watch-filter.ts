import { lstatSync } from "node:fs";
import { relative, sep } from "node:path";
import type { Ignore } from "ignore";
import { readCtxIgnore } from "../ingest/hydrate/discover-files.js";
import { type IgnoreLevel, isIgnored, readGitignore } from "../ingest/hydrate/list-walk.js";
import { SKIPPED_DIRECTORIES } from "../ingest/hydrate/skip-rules.js";

/**
 * What a watcher of one root need not look at: the folders indexing skips (VCS
 * metadata, dependencies, build output, our own `.ctx`), `.ctxignore` matches and
 * what `.gitignore` files ignore. Not watching them keeps a `node_modules` of a
 * hundred thousand files from costing a watch each. Whether a changed file is
 * indexed is still decided by the index run, so this filter only has to be safe:
 * it never hides a file that indexing would take.
 */
export class WatchFilter {
  private readonly extraSkips: ReadonlySet<string>;
  private readonly levels = new Map<string, IgnoreLevel | null>();
  private ctxIgnore: Ignore | null | undefined;

  constructor(
    private readonly root: string,
    skipDirectories: readonly string[],
  ) {
    this.extraSkips = new Set(skipDirectories);
  }

  /** True for a path below the root that the watcher should not watch or report. */
  ignores(absPath: string, stats?: { isDirectory(): boolean }): boolean {
    const rel = relative(this.root, absPath);
    if (rel === "" || rel.startsWith(`..${sep}`) || rel === "..") return false;
    const segments = rel.split(sep);
    const last = segments.length - 1;
    for (let i = 0; i < last; i++) {
      if (this.skipsFolder(segments[i] as string)) return true;
    }
    const name = segments[last] as string;
    const isDirectory = stats ? stats.isDirectory() : isFolder(absPath);
    if (isDirectory && this.skipsFolder(name)) return true;
    const relPath = segments.join("/");
    if (this.ctxIgnoreRules()?.ignores(isDirectory ? `${relPath}/` : relPath)) return true;
    return isIgnored(this.levelsFor(segments), relPath, isDirectory);
  }

  /** Forgets what the ignore files said: one of them changed. */
  reset(): void {
    this.levels.clear();
    this.ctxIgnore = undefined;
  }

  private skipsFolder(name: string): boolean {
    return name === ".ctx" || SKIPPED_DIRECTORIES.has(name) || this.extraSkips.has(name);
  }

  private levelsFor(segments: readonly string[]): IgnoreLevel[] {
    const found: IgnoreLevel[] = [];
    let relDir = "";
    for (let i = 0; i < segments.length; i++) {
      let level = this.levels.get(relDir);
      if (level === undefined) {
        level = readGitignore(this.root, relDir);
        this.levels.set(relDir, level);
      }
      if (level) found.push(level);
      if (i === segments.length - 1) break;
      const name = segments[i] as string;
      relDir = relDir === "" ? name : `${relDir}/${name}`;
    }
    return found;
  }

  private ctxIgnoreRules(): Ignore | null {
    // As indexing reads it: a FIFO or a /dev/zero link here must not freeze the watcher.
    if (this.ctxIgnore === undefined) this.ctxIgnore = readCtxIgnore(this.root);
    return this.ctxIgnore;
  }
}

function isFolder(absPath: string): boolean {
  try {
    return lstatSync(absPath).isDirectory();
  } catch {
    return false;
  }
}
