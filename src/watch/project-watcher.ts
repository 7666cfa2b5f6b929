import { type Dirent, existsSync, type Stats } from "node:fs";
import { basename } from "node:path";
import type { ContextEngine } from "../engine/context-engine.js";
import { coveredRoots } from "../engine/project-roots.js";
import type { IndexRunReport } from "../engine/run-index.js";
import { FolderEvents } from "./folder-events.js";
import { GitState } from "./git-state.js";
import { WatchClaim } from "./watch-claim.js";
import { WatchFilter } from "./watch-filter.js";

/** What a watcher tells its owner (`ctx serve` and `ctx watch` print it to stderr). */
export type WatchReport =
  | { readonly kind: "ready"; readonly roots: readonly string[] }
  | {
      readonly kind: "indexed";
      /** True when every root was re-listed (a checkout, a large batch). */
      readonly full: boolean;
      /** Changed paths in the batch. */
      readonly paths: number;
      readonly added: number;
      readonly changed: number;
      readonly removed: number;
      readonly elapsedMs: number;
    }
  | { readonly kind: "root-missing"; readonly root: string }
  | { readonly kind: "root-back"; readonly root: string }
  | { readonly kind: "failed"; readonly message: string }
  | {
      /** No file events (configured, or the system's limit on watches reached): polling instead. */
      readonly kind: "polling";
      readonly everyMs: number;
      /** Why, when it was not asked for. */
      readonly reason: string | null;
    };

export interface WatchOptions {
  readonly onReport?: (report: WatchReport) => void;
  /** How often a vanished root is looked for again (default 2 s). */
  readonly missingRootPollMs?: number;
  /** Poll every this many ms instead of listening for events (default: `[watch] poll_ms`). */
  readonly pollMs?: number;
  /**
   * The caller has just refreshed the index: the watcher starts out claiming it
   * is up to date. Otherwise its first batch is a full refresh, and the claim
   * that queries may skip their own refresh waits for it.
   */
  readonly upToDate?: boolean;
}

/** Longest a batch waits for git to let go of its index (a lock left by a crashed git). */
const MAX_GIT_WAIT_MS = 10_000;
/** Longest changes wait while more keep arriving: a file written every 50 ms still gets in. */
const MAX_DEBOUNCE_WAIT_MS = 1000;
/** How often changes are looked for once the system's limit on watches forces polling. */
const FALLBACK_POLL_MS = 2000;
/** A poll waits at least this many times the last full listing took: polling never takes most of a core. */
const POLL_COST_FACTOR = 10;

/**
 * Keeps an engine's index fresh while it runs: watches every root the index
 * covers, gathers what changed, and after a short quiet (`[watch] debounce_ms`)
 * indexes only those paths. A git checkout, merge or rebase (git holds its
 * index lock meanwhile, then HEAD moves) or a batch larger than
 * `[watch] full_refresh_paths` becomes one full refresh instead. Queries keep
 * answering from what is committed while a batch is written. Without file
 * events (`[watch] poll_ms`, or the system's limit on watches reached) it
 * re-lists every root now and then instead.
 */
export class ProjectWatcher {
  private readonly pending = new Set<string>();
  private fullPending = false;
  private timer: NodeJS.Timeout | null = null;
  private firstPendingAt = 0;
  private gitWaitSince = 0;
  private running: Promise<void> | null = null;
  private closed = false;
  private readonly missing = new Set<string>();
  private missingPoll: NodeJS.Timeout | null = null;
  private idleWaiters: (() => void)[] = [];
  private events: FolderEvents | null = null;
  private pollEveryMs: number | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private lastFullMs = 0;
  /** Held while file events are listened to: other processes' queries then skip their refresh. */
  private claim: WatchClaim | null = null;
  private lastBatchFailed = false;

  private constructor(
    private readonly engine: ContextEngine,
    private readonly roots: readonly string[],
    private readonly gits: readonly GitState[],
    private readonly options: WatchOptions,
  ) {}

  /** Starts watching once the roots' folders are listed; reports `ready` then. */
  static async start(engine: ContextEngine, options: WatchOptions = {}): Promise<ProjectWatcher> {
    const roots = await coveredRoots(engine.store, engine.root);
    const filters = roots.map(
      (root) => [root, new WatchFilter(root, engine.config.hydration.skipDirectories)] as const,
    );
    const present = roots.filter((root) => existsSync(root));
    const gits = (await Promise.all(present.map((root) => GitState.of(root)))).filter(
      (git): git is GitState => git !== null,
    );
    const gitDirs = [...new Set(gits.map((git) => git.gitDir))];
    const created = new ProjectWatcher(engine, roots, gits, options);
    for (const root of roots) if (!present.includes(root)) created.rootMissing(root);
    const pollMs = options.pollMs ?? engine.config.watch.pollMs;
    if (pollMs !== undefined) {
      created.startPolling(pollMs, null);
    } else {
      try {
        await created.listen(present, gitDirs, filters);
        created.claim = new WatchClaim(engine.store);
        if (options.upToDate) {
          created.claim.markSettled();
          await created.claim.written();
        } else {
          created.fullPending = true;
          created.schedule();
        }
      } catch (error) {
        if (!isWatchLimit(error)) throw error;
        created.startPolling(FALLBACK_POLL_MS, watchLimitReason(error));
      }
    }
    created.report({ kind: "ready", roots: present });
    return created;
  }

  private async listen(
    present: readonly string[],
    gitDirs: readonly string[],
    filters: readonly (readonly [string, WatchFilter])[],
  ): Promise<void> {
    const indexPath = this.engine.indexPath;
    const ignored = (path: string, stats?: Stats | Dirent): boolean => {
      if (gitDirs.includes(path)) return false;
      // The index itself (and its journal) changes with every batch written.
      if (path.startsWith(indexPath)) return true;
      const gitDir = gitDirs.find((dir) => path.startsWith(`${dir}/`));
      // In a git folder only what says git is rewriting the work tree, or is done.
      if (gitDir) return !isGitSignal(path, gitDir);
      const filter = filters.find(([root]) => path === root || path.startsWith(`${root}/`));
      return filter ? filter[1].ignores(path, stats) : false;
    };
    this.events = FolderEvents.start([...present, ...gitDirs], {
      ignored,
      onEvent: (event, path) => this.onChange(event, path, gitDirs, filters),
      onError: (error) => {
        if (isWatchLimit(error)) void this.fallBackToPolling(error);
        else this.report({ kind: "failed", message: `watching failed: ${describe(error)}` });
      },
    });
  }

  /** Events stop at the system's limit on watches: what is not watched would go stale, so poll everything. */
  private async fallBackToPolling(error: unknown): Promise<void> {
    if (this.pollEveryMs !== null || this.closed) return;
    this.pollEveryMs = FALLBACK_POLL_MS; // before the await: the limit is hit once per folder
    this.events?.close();
    this.events = null;
    await this.claim?.stop();
    this.claim = null;
    this.startPolling(FALLBACK_POLL_MS, watchLimitReason(error));
  }

  private startPolling(everyMs: number, reason: string | null): void {
    if (this.closed) return;
    this.pollEveryMs = everyMs;
    this.report({ kind: "polling", everyMs, reason });
    this.nextPoll();
  }

  private nextPoll(): void {
    if (this.closed || this.pollEveryMs === null || this.pollTimer !== null) return;
    const wait = Math.max(this.pollEveryMs, POLL_COST_FACTOR * this.lastFullMs);
    // Not unref'd: while polling, this timer is what keeps `ctx watch` alive.
    this.pollTimer = setTimeout(() => {
      this.pollTimer = null;
      this.fullPending = true;
      this.schedule();
    }, wait);
  }

  /** Resolves once no change waits and no batch runs (tests and benchmarks wait on it). */
  idle(): Promise<void> {
    if (!this.busy()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops watching; a batch being written finishes first. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.missingPoll) clearInterval(this.missingPoll);
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.events?.close();
    await this.running;
    await this.claim?.stop();
    this.wakeIdle();
  }

  private onChange(
    event: string,
    path: string,
    gitDirs: readonly string[],
    filters: readonly (readonly [string, WatchFilter])[],
  ): void {
    if (this.closed) return;
    this.claim?.markPending();
    if (gitDirs.some((dir) => path.startsWith(`${dir}/`))) {
      this.schedule();
      return;
    }
    if (this.roots.includes(path) && event === "unlinkDir") {
      this.rootMissing(path);
      return;
    }
    const name = basename(path);
    if (name === ".gitignore" || name === ".ctxignore") {
      // What is ignored changed: every file may be in or out now.
      for (const [, filter] of filters) filter.reset();
      this.fullPending = true;
    }
    this.pending.add(path);
    this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    const now = Date.now();
    if (this.timer === null) this.firstPendingAt = now;
    else clearTimeout(this.timer);
    // A steady stream of writes must not hold a batch back for ever.
    const waited = now - this.firstPendingAt;
    const delay = waited >= MAX_DEBOUNCE_WAIT_MS ? 0 : this.engine.config.watch.debounceMs;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delay);
  }

  private async flush(): Promise<void> {
    if (this.closed) return;
    if (this.running) return; // the batch running flushes again when it ends
    if (this.gits.some((git) => git.busy)) {
      // Mid-checkout: wait for git to finish, then take the whole change at once.
      this.gitWaitSince ||= Date.now();
      if (Date.now() - this.gitWaitSince < MAX_GIT_WAIT_MS) {
        this.timer = setTimeout(
          () => {
            this.timer = null;
            void this.flush();
          },
          Math.max(50, this.engine.config.watch.debounceMs),
        );
        return;
      }
    }
    this.gitWaitSince = 0;
    this.running = this.runBatch().finally(() => {
      this.running = null;
      if (this.pending.size > 0 || this.fullPending) this.schedule();
      else this.wakeIdle();
      this.nextPoll();
    });
    await this.running;
  }

  private async runBatch(): Promise<void> {
    const moved = await Promise.all(this.gits.map((git) => git.headMoved()));
    const paths = [...this.pending];
    this.pending.clear();
    const full =
      this.fullPending ||
      moved.some(Boolean) ||
      paths.length > this.engine.config.watch.fullRefreshPaths;
    this.fullPending = false;
    if (!full && paths.length === 0) return;
    const started = performance.now();
    try {
      const report: IndexRunReport = full
        ? await this.engine.refresh()
        : await this.engine.refreshPaths(paths);
      for (const root of report.missingRoots) this.rootMissing(root);
      // Queries in other processes rely on the claim: they read the graph this batch
      // built, so it is kept now (else each of them would build it again), then settled.
      if (this.claim && this.pending.size === 0 && !this.fullPending) await this.engine.keepGraph();
      this.lastBatchFailed = false;
      const elapsedMs = Math.round(performance.now() - started);
      if (full) this.lastFullMs = elapsedMs;
      const nothing = report.added + report.changed + report.removed === 0;
      if (full && nothing && this.pollEveryMs !== null) return; // a poll that found nothing
      this.report({
        kind: "indexed",
        full,
        paths: paths.length,
        added: report.added,
        changed: report.changed,
        removed: report.removed,
        elapsedMs,
      });
    } catch (error) {
      // The next change tries again; what was committed before the failure stays.
      // Until one succeeds, queries refresh for themselves.
      this.lastBatchFailed = true;
      this.claim?.markFailed();
      this.report({
        kind: "failed",
        message: `indexing a change failed: ${describe(error)} (the next change tries again)`,
      });
    }
  }

  /** Reports a root that is gone (once) and looks for it again now and then. */
  private rootMissing(root: string): void {
    if (this.missing.has(root) || this.closed) return;
    this.missing.add(root);
    this.report({ kind: "root-missing", root });
    this.missingPoll ??= setInterval(() => {
      for (const gone of [...this.missing]) {
        if (!existsSync(gone)) continue;
        this.missing.delete(gone);
        this.events?.add(gone);
        this.report({ kind: "root-back", root: gone });
        this.fullPending = true;
        this.schedule();
      }
      if (this.missing.size === 0 && this.missingPoll) {
        clearInterval(this.missingPoll);
        this.missingPoll = null;
      }
    }, this.options.missingRootPollMs ?? 2000);
    this.missingPoll.unref();
  }

  private busy(): boolean {
    return this.running !== null || this.timer !== null || this.pending.size > 0;
  }

  private wakeIdle(): void {
    if (this.busy() && !this.closed) return;
    if (!this.lastBatchFailed) this.claim?.markSettled();
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  private report(report: WatchReport): void {
    this.options.onReport?.(report);
  }
}

/** HEAD, and git's index lock coming and going, in a checkout's git folder. */
function isGitSignal(path: string, gitDir: string): boolean {
  const rel = path.slice(gitDir.length + 1);
  return rel === "HEAD" || rel === "index.lock" || rel === "index";
}

/** The system's limit on file watches (inotify's max_user_watches) or on open files. */
function isWatchLimit(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "ENOSPC" || code === "EMFILE" || /ENOSPC|EMFILE/.test(describe(error));
}

function watchLimitReason(error: unknown): string {
  return (
    `the system's limit on file watches is reached (${describe(error)}); ` +
    "raise fs.inotify.max_user_watches (sysctl) to be told of changes instead"
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.message.split("\n")[0] ?? error.name) : String(error);
}
