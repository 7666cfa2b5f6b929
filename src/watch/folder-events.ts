import { type Dirent, type FSWatcher, lstatSync, readdirSync, type Stats, watch } from "node:fs";
import { join, sep } from "node:path";

/** Why a folder listed a moment ago cannot be watched, other than the system's limits. */
const VANISHED = new Set(["ENOENT", "ENOTDIR", "EACCES", "EPERM"]);

export type FolderEvent = "add" | "change" | "unlink" | "addDir" | "unlinkDir";

export interface FolderEventsOptions {
  /** Paths not to watch or report (a folder skipped here is not walked). */
  readonly ignored: (path: string, stats?: Stats | Dirent) => boolean;
  readonly onEvent: (event: FolderEvent, path: string) => void;
  /** A folder that could not be watched after start (the system's limit on watches, say). */
  readonly onError: (error: unknown) => void;
}

/**
 * File events for folder trees, from one system watch per folder (inotify
 * tells a folder's watch of every file created, written, renamed or deleted
 * in it). chokidar, used before, also set one watch per file: 200,000 files
 * ran past Linux's default limit on watches (and held 2 GB), so the watcher
 * fell back to polling every file. Folders here are a few thousand.
 */
export class FolderEvents {
  private readonly watchers = new Map<string, FSWatcher>();
  private closed = false;

  private constructor(private readonly options: FolderEventsOptions) {}

  /**
   * Watches every folder below the paths that is not ignored. Throws what the
   * system said when a watch cannot be set (ENOSPC, EMFILE): the caller polls.
   */
  static start(paths: readonly string[], options: FolderEventsOptions): FolderEvents {
    const events = new FolderEvents(options);
    try {
      for (const path of paths) events.watchTree(path, false);
    } catch (error) {
      events.close();
      throw error;
    }
    return events;
  }

  /** Watches a folder again (a root that came back); its files are not reported. */
  add(path: string): void {
    this.guarded(() => this.watchTree(path, false));
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /** Watches `top` and the folders below it; `report`: each file found is an `add` (a new folder). */
  private watchTree(top: string, report: boolean): void {
    const folders = [top];
    for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
      if (this.closed || this.watchers.has(folder)) continue;
      let entries: Dirent[];
      try {
        entries = readdirSync(folder, { withFileTypes: true });
      } catch {
        continue; // gone meanwhile, or not ours to read: indexing says so
      }
      this.watchOne(folder);
      for (const entry of entries) {
        const path = join(folder, entry.name);
        if (this.options.ignored(path, entry)) continue;
        // Links are not followed: indexing does not follow linked folders either.
        if (entry.isDirectory()) folders.push(path);
        else if (report) this.options.onEvent("add", path);
      }
    }
  }

  private watchOne(folder: string): void {
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, { persistent: true }, (type, name) =>
        this.guarded(() => this.changed(folder, type, name)),
      );
    } catch (error) {
      // Gone or closed to us between listing and watching: nothing there to watch.
      if (VANISHED.has((error as NodeJS.ErrnoException).code ?? "")) return;
      throw error;
    }
    watcher.on("error", (error) => {
      // A watched folder that is deleted may end its watch with an error: that is its unlink.
      if (this.exists(folder)) this.options.onError(error);
      else this.gone(folder);
    });
    this.watchers.set(folder, watcher);
  }

  private changed(folder: string, type: string, name: string | Buffer | null): void {
    if (this.closed || !this.watchers.has(folder)) return;
    if (!this.exists(folder)) {
      this.gone(folder);
      return;
    }
    if (name === null) {
      this.options.onEvent("change", folder);
      return;
    }
    const path = join(folder, name.toString());
    let stats: Stats | null = null;
    try {
      stats = lstatSync(path);
    } catch {
      stats = null;
    }
    if (stats === null) {
      if (this.watchers.has(path)) this.gone(path);
      else if (!this.options.ignored(path)) this.options.onEvent("unlink", path);
      return;
    }
    if (this.options.ignored(path, stats)) return;
    if (stats.isDirectory()) {
      if (this.watchers.has(path)) return;
      this.options.onEvent("addDir", path);
      this.watchTree(path, true);
      return;
    }
    // "rename": it came (created, or moved or saved over this name); "change": written.
    this.options.onEvent(type === "rename" ? "add" : "change", path);
  }

  /** A watched folder is gone: its watches and those below it end, and it is reported once. */
  private gone(folder: string): void {
    if (!this.watchers.has(folder)) return;
    for (const [path, watcher] of this.watchers) {
      if (path === folder || path.startsWith(`${folder}${sep}`)) {
        watcher.close();
        this.watchers.delete(path);
      }
    }
    this.options.onEvent("unlinkDir", folder);
  }

  private exists(path: string): boolean {
    try {
      return lstatSync(path).isDirectory();
    } catch {
      return false;
    }
  }

  /** Errors after start (a new folder past the limit on watches) go to onError, never throw into fs. */
  private guarded(action: () => void): void {
    try {
      action();
    } catch (error) {
      this.options.onError(error);
    }
  }
}
