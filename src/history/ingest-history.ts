import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { HistoryBatch, HistorySpan, HistoryStore } from "../core/history.js";
import { OWN_PROCESS_GROUP, SAFE_GIT_OPTIONS } from "../git/git-command.js";
import { MINED_COMMITS, readDiffIdentifiers } from "./diff-identifiers.js";
import { GitHistoryError } from "./git-log.js";
import { type HistorySettings, sinceSeconds } from "./history-settings.js";
import { readCommitsInParts } from "./read-in-parts.js";

const run = promisify(execFile);
/** Ten thousand shas and more: rev-list's output is 41 bytes a commit. */
const MAX_OUTPUT = 256 * 1024 * 1024;
/** Commits written per transaction: a killed run keeps what it wrote, in order. */
const BATCH = 500;
const LOCK_FILES = [
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "yarn.lock",
  "bun.lockb",
  "poetry.lock",
  "Pipfile.lock",
  "uv.lock",
  "Cargo.lock",
  "Gemfile.lock",
  "composer.lock",
  "go.sum",
  "mix.lock",
  "pubspec.lock",
  "Podfile.lock",
  "flake.lock",
  "packages.lock.json",
];

/** Commits of one checkout written so far out of those to read (a long history takes a while). */
export interface HistoryProgress {
  readonly phase: "history";
  readonly root: string;
  readonly done: number;
  readonly total: number;
}

interface HistoryOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: HistoryProgress) => void;
}

/** What one run did to a resource's stored history. */
export interface HistoryReport {
  readonly resourceId: string;
  readonly root: string;
  readonly added: number;
  readonly removed: number;
  /** Commits stored after the run, and the author dates of the oldest and newest. */
  readonly commits: number;
  readonly first: string | null;
  readonly last: string | null;
  /** Null when the root has no commits yet. */
  readonly head: string | null;
  /** The history read before is not an ancestor of HEAD (a rebase, a reset, another branch). */
  readonly rewritten: boolean;
  readonly elapsedMs: number;
  /** Why the history could not be read (what was stored is kept); null when it was. */
  readonly error: string | null;
}

interface Checkout {
  readonly head: string;
  /** The root's folder inside the work tree ("" at its top, else ending in `/`). */
  readonly prefix: string;
}

/**
 * Brings a git checkout's stored history in line with what HEAD reaches within
 * the limits. When HEAD moved forward, only the commits since the last run are
 * read; otherwise commits no longer reachable (history rewritten) or past the
 * limits are removed and the missing ones read. Either way commits stream from
 * `git log`, oldest first. Nothing runs when HEAD and the limits are those of
 * the last run.
 */
export async function ingestHistory(
  store: HistoryStore,
  resource: { readonly id: string; readonly root: string },
  settings: HistorySettings,
  options: HistoryOptions = {},
): Promise<HistoryReport> {
  const started = performance.now();
  const checkout = await readCheckout(resource.root);
  const report = await syncCommits(store, resource, checkout, settings, options);
  if (checkout) await readNewestDiffs(store, resource, checkout, options.signal);
  return { ...report, elapsedMs: performance.now() - started };
}

/**
 * Reads the diffs of the newest commits not read yet (new ones, and after an
 * upgrade the ones stored before) for the identifiers they touched, in one
 * `git log -p` and one transaction: a run cut short leaves them to the next.
 */
async function readNewestDiffs(
  store: HistoryStore,
  resource: { readonly id: string; readonly root: string },
  checkout: Checkout,
  signal: AbortSignal | undefined,
): Promise<void> {
  const shas = await store.commitsWithoutIdentifiers(resource.id, MINED_COMMITS);
  if (shas.length === 0) return;
  const found = await readDiffIdentifiers(
    resource.root,
    shas,
    [...pathArguments(checkout), ...diffPaths()],
    signal,
  );
  await store.setCommitIdentifiers(
    resource.id,
    // A commit git gave no diff for (a merge) touched nothing.
    shas.map((sha) => ({ sha, identifiers: found.has(sha) ? (found.get(sha) ?? null) : [] })),
  );
}

async function syncCommits(
  store: HistoryStore,
  resource: { readonly id: string; readonly root: string },
  checkout: Checkout | null,
  settings: HistorySettings,
  options: HistoryOptions,
): Promise<HistoryReport> {
  const started = performance.now();
  const span = await store.historySpan(resource.id);
  const limits = limitsKey(settings);
  const headKey = checkout ? `${checkout.head} ${limits}` : null;
  const report = (added: number, removed: number, after: HistorySpan, rewritten: boolean) => ({
    resourceId: resource.id,
    root: resource.root,
    added,
    removed,
    commits: after.commits,
    first: after.first,
    last: after.last,
    head: checkout?.head ?? null,
    rewritten,
    elapsedMs: performance.now() - started,
    error: null,
  });
  if (headKey !== null && span.readAt === headKey) return report(0, 0, span, false);
  const [previousHead, previousLimits] = span.readAt?.split(" ") ?? [];
  const write = (batch: Omit<HistoryBatch, "resourceId">) =>
    store.writeHistory({ resourceId: resource.id, ...batch });
  /** Reads commits given oldest first, written in that order whatever part of them git gives first. */
  const readAll = async (shas: readonly string[]): Promise<void> => {
    if (!checkout || shas.length === 0) return;
    let done = 0;
    const progress = (): void =>
      options.onProgress?.({ phase: "history", root: resource.root, done, total: shas.length });
    progress();
    await readCommitsInParts(resource.root, shas, {
      logOptions: pathArguments(checkout),
      paths: diffPaths(),
      batchSize: BATCH,
      write: async (add) => {
        await write({ add, remove: [], relink: false, readAt: null });
        done += add.length;
        progress();
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
  };

  // HEAD moved forward with the same limits: read what lies between, cut to the limits.
  // Commits are added in order on top of the stored ones, so renames apply as they come.
  if (
    checkout &&
    previousHead &&
    previousLimits === limits &&
    (await isAncestor(resource.root, previousHead))
  ) {
    const added = await revList(resource.root, [
      ...limitArguments(settings),
      `${previousHead}..${checkout.head}`,
      ...pathspec(checkout),
    ]);
    await readAll(added.reverse());
    const before = await store.historySpan(resource.id);
    const removed = await pruneToLimits(store, resource.id, settings, before.commits);
    await write({ add: [], remove: removed, relink: false, readAt: headKey });
    return report(added.length, removed.length, await store.historySpan(resource.id), false);
  }

  // Anything else (first run, a run cut short, rewritten history, other limits):
  // what HEAD reaches, against what is stored.
  const stored = await store.listCommitShas(resource.id);
  const oldestFirst = checkout
    ? (
        await revList(resource.root, [
          ...limitArguments(settings),
          checkout.head,
          ...pathspec(checkout),
        ])
      ).reverse()
    : [];
  const reachable = new Set(oldestFirst);
  const stale = stored.filter((sha) => !reachable.has(sha));
  // The index must end as a first run would leave it, commits stored oldest first
  // (ties between commits of one second are broken by that order): the stored
  // commits that are where a first run puts them stay, the ones after are read again.
  const kept = stored.filter((sha) => reachable.has(sha));
  let inPlace = 0;
  while (inPlace < kept.length && kept[inPlace] === oldestFirst[inPlace]) inPlace++;
  const misplaced = kept.slice(inPlace);
  if (stale.length + misplaced.length > 0)
    await write({ add: [], remove: [...stale, ...misplaced], relink: false, readAt: null });
  await readAll(oldestFirst.slice(inPlace));
  // Every name followed again from the stored commits, however they got there: the
  // same from a first run, from a run cut short and from a rewritten history.
  await write({ add: [], remove: [], relink: true, readAt: headKey });
  const rewritten = previousHead !== undefined && previousLimits === limits;
  const added = oldestFirst.length - kept.length;
  return report(added, stale.length, await store.historySpan(resource.id), rewritten);
}

/** The oldest stored commits past `max_commits`, or older than `since`. */
async function pruneToLimits(
  store: HistoryStore,
  resourceId: string,
  settings: HistorySettings,
  commits: number,
): Promise<string[]> {
  const cutoff = settings.since ? sinceSeconds(settings.since) : null;
  if (commits <= settings.maxCommits && cutoff === null) return [];
  return store.oldestCommits(resourceId, Math.max(0, commits - settings.maxCommits), cutoff);
}

/**
 * The history of each git checkout among the resources. A repository git cannot
 * read is reported, not thrown: the files are indexed, and the history stored
 * before stays as it was.
 */
export async function ingestHistories(
  store: HistoryStore,
  resources: readonly { readonly id: string; readonly root: string; readonly kind: string }[],
  settings: HistorySettings,
  options: HistoryOptions = {},
): Promise<HistoryReport[]> {
  if (!settings.enabled) return [];
  const reports: HistoryReport[] = [];
  for (const resource of resources) {
    if (resource.kind !== "git") continue;
    const started = performance.now();
    try {
      reports.push(await ingestHistory(store, resource, settings, options));
    } catch (error) {
      if (options.signal?.aborted || !(error instanceof GitHistoryError)) throw error;
      const { commits, first, last } = await store.historySpan(resource.id);
      reports.push({
        resourceId: resource.id,
        root: resource.root,
        added: 0,
        removed: 0,
        commits,
        first,
        last,
        head: null,
        rewritten: false,
        elapsedMs: performance.now() - started,
        error: error.message,
      });
    }
  }
  return reports;
}

/**
 * HEAD and where the root sits in its work tree; null when the repository has
 * no commit yet. Throws when git cannot read the repository at all (not
 * installed, a damaged `.git`, an owner git does not trust), so that the
 * history stored before is kept rather than taken for gone.
 */
async function readCheckout(root: string): Promise<Checkout | null> {
  // One git start for both: rev-parse prints the prefix, then HEAD's sha when
  // there is one; with no commit yet it exits 1 after the prefix line.
  let stdout: string;
  try {
    ({ stdout } = await run(
      "git",
      [...SAFE_GIT_OPTIONS, "rev-parse", "--show-prefix", "--verify", "--quiet", "HEAD"],
      { cwd: root, ...OWN_PROCESS_GROUP },
    ));
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (failed.code === 1 && failed.stdout?.includes("\n")) return null; // no commit yet
    const detail = failed.stderr?.trim().split("\n")[0];
    throw new GitHistoryError(root, detail || (error as Error).message);
  }
  const [prefix = "", head = ""] = stdout.split("\n");
  return /^[0-9a-f]{40,64}$/.test(head) ? { head, prefix } : null;
}

/** Limits the history to the root's folder when it is not the top of its work tree. */
function pathArguments(checkout: Checkout): string[] {
  return checkout.prefix === "" ? [] : ["--relative"];
}

function pathspec(checkout: Checkout): string[] {
  return checkout.prefix === "" ? [] : ["--", "."];
}

/** `git rev-list`'s shas, newest first. */
async function revList(root: string, args: readonly string[]): Promise<string[]> {
  try {
    const { stdout } = await run("git", [...SAFE_GIT_OPTIONS, "rev-list", ...args], {
      cwd: root,
      maxBuffer: MAX_OUTPUT,
      ...OWN_PROCESS_GROUP,
    });
    return stdout.split("\n").filter((line) => line.length > 0);
  } catch (error) {
    const detail = (error as { stderr?: string }).stderr?.trim().split("\n")[0];
    throw new GitHistoryError(root, detail || (error as Error).message);
  }
}

/**
 * What the diffs cover: all but lock files, whose diffs (tens of thousands of
 * generated lines) cost more than the rest of a history together and say
 * nothing about the code (vuejs/core: 6.9 s → 4.1 s for 7,157 commits).
 * `--full-history --sparse` keeps a commit that changed nothing else.
 */
function diffPaths(): string[] {
  return [
    "--full-history",
    "--sparse",
    "--",
    ".",
    ...LOCK_FILES.map((name) => `:(exclude,glob)**/${name}`),
  ];
}

function limitArguments(settings: HistorySettings): string[] {
  return [
    `--max-count=${settings.maxCommits}`,
    ...(settings.since ? [`--since=${settings.since}`] : []),
  ];
}

async function isAncestor(root: string, sha: string): Promise<boolean> {
  try {
    await run("git", [...SAFE_GIT_OPTIONS, "merge-base", "--is-ancestor", sha, "HEAD"], {
      cwd: root,
      ...OWN_PROCESS_GROUP,
    });
    return true;
  } catch {
    return false; // not an ancestor, or no longer in the repository at all
  }
}

function limitsKey(settings: HistorySettings): string {
  return `max=${settings.maxCommits},since=${settings.since ?? ""}`.replaceAll(" ", "_");
}
