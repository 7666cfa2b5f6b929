import { realpath, stat } from "node:fs/promises";
import { PathNotFoundError } from "../core/errors.js";
import type { Store } from "../core/store.js";
import {
  type CutFile,
  type DocumentState,
  emptySkipCounts,
  type IndexReport,
  MAX_NAMED_SKIPS,
  type SecretFile,
  SKIP_REASONS,
  type SkipCounts,
  type SkippedFile,
} from "../core/types.js";
import { GeneratedFiles } from "./generated-files.js";
import {
  discoverFiles,
  type FileCandidate,
  type HydrationLimits,
} from "./hydrate/discover-files.js";
import type { IndexRun } from "./index-run.js";
import type { PreparedDocument } from "./prepare-document.js";
import type { DocumentPreparer } from "./preparer.js";
import { documentSearchTexts } from "./stored-search-text.js";
import { WriteBatch } from "./write-batch.js";

/** Bytes of files read ahead of the one being written, whose chunks wait in memory. */
const MAX_BYTES_AHEAD = 32 * 1024 * 1024;

export interface IndexOptions {
  readonly store: Store;
  readonly limits: HydrationLimits;
  /**
   * A preparer for one root's changed files, given how many bytes it has to
   * read: the caller picks worker threads for large runs and this thread for small.
   */
  readonly preparerFor: (changedBytes: number, root: string) => DocumentPreparer;
  /**
   * Compacts the store at the end of the run (default: `store.compact` in this
   * thread); the engine hands it to another thread when it can.
   */
  readonly compact?: () => Promise<void>;
  /** What the whole run shares (force, scope, signal, progress, hooks); default: nothing set. */
  readonly run?: IndexRun;
}

interface Counts {
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  chunks: number;
  bytesRead: number;
}

/**
 * Brings the index up to date with the files under each root: files whose size
 * and mtime are unchanged are not read, files whose content hash is unchanged
 * are not re-chunked, and documents whose file is gone (or now skipped) are
 * removed. Each file's update is one transaction, so an interrupted run leaves
 * every document either old or new, never half-written.
 */
export async function indexResources(
  roots: readonly string[],
  options: IndexOptions,
): Promise<IndexReport> {
  const run: IndexRun = options.run ?? {};
  const started = performance.now();
  const counts: Counts = {
    added: 0,
    changed: 0,
    removed: 0,
    unchanged: 0,
    chunks: 0,
    bytesRead: 0,
  };
  const skipped = emptySkipCounts();
  const secretFiles: IndexReport["secretFiles"][number][] = [];
  const skippedFiles: IndexReport["skippedFiles"][number][] = [];
  const longPaths: IndexReport["longPaths"][number][] = [];
  const resources: IndexReport["resources"][number][] = [];
  const missingRoots: string[] = [];
  const cutFiles: IndexReport["cutFiles"][number][] = [];
  for (const root of roots) {
    run.signal?.throwIfAborted();
    const scope = run.scope?.get(root);
    if (run.scope && !scope) continue;
    const realRoot = await resolveRoot(root).catch((error: unknown) => {
      if (run.recordedRoots && error instanceof PathNotFoundError) return null;
      throw error;
    });
    if (realRoot === null) {
      missingRoots.push(root);
      continue;
    }
    run.onProgress?.({ phase: "discover", root: realRoot });
    const discovery = await discoverFiles(realRoot, options.limits, scope);
    const resource = await options.store.documents.ensureResource(realRoot, discovery.kind);
    resources.push({ id: resource.id, root: realRoot, kind: discovery.kind });
    const runSkipped = { ...discovery.skipped };
    const runSecrets = [...discovery.secretFiles];
    const runNamed = [...discovery.skippedFiles];
    const inScope = scope ? scopeTest(scope) : () => true;
    const runCut: CutFile[] = [];
    await indexFiles(
      resource.id,
      realRoot,
      discovery.files,
      { skipped: runSkipped, secretFiles: runSecrets, skippedFiles: runNamed, cutFiles: runCut },
      counts,
      options,
      inScope,
    );
    // Those skipped by name, then by content: in path order, as files are listed.
    runSecrets.sort((a, b) => (a.path < b.path ? -1 : 1));
    // A scoped run saw a few paths: the last full run's counts of skipped files stay.
    if (!scope) {
      await options.store.documents.recordRun(
        resource.id,
        runSkipped,
        new Date().toISOString(),
        runSecrets,
        runNamed,
      );
    }
    addSkips(skipped, runSkipped);
    if (runSecrets.length > 0) secretFiles.push({ root: realRoot, files: runSecrets });
    if (runNamed.length > 0)
      skippedFiles.push({ root: realRoot, skipped: runSkipped, files: runNamed });
    if (runCut.length > 0) cutFiles.push({ root: realRoot, files: runCut });
    if (discovery.longPaths.length > 0)
      longPaths.push({ root: realRoot, paths: discovery.longPaths });
  }
  run.onFilesWritten?.({
    added: counts.added,
    changed: counts.changed,
    removed: counts.removed,
  });
  await (options.compact ?? (() => options.store.documents.compact(documentSearchTexts)))();
  return {
    resources,
    ...counts,
    skipped,
    secretFiles,
    skippedFiles,
    longPaths,
    missingRoots,
    cutFiles,
    elapsedMs: Math.round(performance.now() - started),
  };
}

/**
 * Decides which of a root's files changed since the last run and brings their
 * documents up to date. A file whose size and mtime match its stored document
 * is not read (`--force` reads every file); a file read again whose content
 * hash is unchanged is not chunked again (its stored size and mtime are
 * updated); the rest are prepared ahead in a window of workers and written in
 * file order; stored documents whose file is gone (or now holds a secret, which
 * is named in `secretFiles`) are removed.
 */
async function indexFiles(
  resourceId: string,
  root: string,
  files: readonly FileCandidate[],
  {
    skipped,
    secretFiles,
    skippedFiles,
    cutFiles,
  }: {
    readonly skipped: SkipCounts;
    readonly secretFiles: SecretFile[];
    readonly skippedFiles: SkippedFile[];
    readonly cutFiles: CutFile[];
  },
  counts: Counts,
  options: IndexOptions,
  inScope: (relPath: string) => boolean,
): Promise<void> {
  const { store } = options;
  const run: IndexRun = options.run ?? {};
  const known = new Map(
    (await store.documents.listDocuments(resourceId))
      .filter((doc) => inScope(doc.path))
      .map((doc) => [doc.path, doc]),
  );
  const toRead: { file: FileCandidate; previous: DocumentState | undefined }[] = [];
  for (const file of files) {
    const previous = known.get(file.relPath);
    known.delete(file.relPath);
    const untouched =
      previous && previous.size === file.size && previous.mtimeMs === Math.trunc(file.mtimeMs);
    if (untouched && !run.force) {
      counts.unchanged++;
    } else {
      toRead.push({ file, previous });
    }
  }
  const stale = [...known.values()].map((gone) => gone.id);
  const generated = await GeneratedFiles.load(store.state, resourceId);
  for (const gone of known.values()) generated.note(gone.path, false);
  const preparer = options.preparerFor(
    toRead.reduce((sum, { file }) => sum + file.size, 0),
    root,
  );
  const batch = new WriteBatch(store, run.onWritten);
  try {
    // Tasks start ahead in a window but finish in file order, so ids are deterministic.
    const inFlight: Promise<PreparedDocument>[] = [];
    let started = 0;
    let bytesAhead = 0;
    for (let done = 0; done < toRead.length; done++) {
      run.signal?.throwIfAborted();
      while (
        started < toRead.length &&
        started < done + preparer.parallelism &&
        (started === done || bytesAhead < MAX_BYTES_AHEAD)
      ) {
        const { file, previous } = toRead[started] as (typeof toRead)[number];
        bytesAhead += file.size;
        const task = preparer.prepare({
          absPath: file.absPath,
          relPath: file.relPath,
          previousHash: run.force ? null : (previous?.hash ?? null),
          skipSecrets: !options.limits.includeSecrets,
        });
        // Awaited below in order; this only keeps a failure after an earlier one from going unhandled.
        task.catch(() => undefined);
        inFlight.push(task);
        started++;
      }
      const { file, previous } = toRead[done] as (typeof toRead)[number];
      const prepared = await (inFlight.shift() as Promise<PreparedDocument>);
      bytesAhead -= file.size;
      await apply(prepared, file, previous, resourceId, skipped, counts, stale, store, batch);
      if (prepared.status === "chunked") generated.note(file.relPath, prepared.generated);
      else if (prepared.status === "binary" || prepared.status === "secret")
        generated.note(file.relPath, false);
      if (prepared.status === "secret")
        secretFiles.push({ path: file.relPath, found: prepared.found });
      // Counted by `apply`; named while the reason has room.
      if (
        (prepared.status === "binary" || prepared.status === "unreadable") &&
        skipped[prepared.status] <= MAX_NAMED_SKIPS
      )
        skippedFiles.push({ reason: prepared.status, path: file.relPath, bytes: null });
      if (prepared.status === "chunked" && prepared.indexedBytes < prepared.bytes) {
        const { indexedBytes, bytes: size } = prepared;
        cutFiles.push({ path: file.relPath, indexedBytes, size });
      }
      if (done % 64 === 0) {
        run.onProgress?.({ phase: "index", root, done, total: toRead.length });
        // Files prepared in this thread resolve as microtasks, which starve the event
        // loop: without a turn now and then, a server's queries and Ctrl-C waited
        // for the whole run.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    await batch.flush();
    await generated.save();
  } catch (error) {
    // Keep what was prepared before the failure (and let the write in flight end); the
    // failure itself is what gets reported.
    await batch.flush().catch(() => undefined);
    await generated.save().catch(() => undefined);
    throw error;
  } finally {
    await preparer.close();
  }
  run.onProgress?.({ phase: "index", root, done: toRead.length, total: toRead.length });
  counts.removed += stale.length;
  await store.documents.removeDocuments(stale);
}

async function apply(
  prepared: PreparedDocument,
  file: FileCandidate,
  previous: DocumentState | undefined,
  resourceId: string,
  skipped: SkipCounts,
  counts: Counts,
  stale: number[],
  store: Store,
  batch: WriteBatch,
): Promise<void> {
  switch (prepared.status) {
    case "unreadable":
      // Keep what was indexed before: an unreadable file is counted, not erased.
      skipped.unreadable++;
      return;
    case "binary":
      counts.bytesRead += prepared.bytes;
      skipped.binary++;
      if (previous) stale.push(previous.id);
      return;
    case "secret":
      // Kept out, and out of the index if an earlier version of it was indexed.
      counts.bytesRead += prepared.bytes;
      skipped.secret++;
      if (previous) stale.push(previous.id);
      return;
    case "unchanged":
      counts.bytesRead += prepared.bytes;
      counts.unchanged++;
      if (previous) await store.documents.touchDocument(previous.id, file.size, file.mtimeMs);
      return;
    case "chunked":
      counts.bytesRead += prepared.bytes;
      await batch.add({
        resourceId,
        path: file.relPath,
        language: prepared.language,
        size: file.size,
        mtimeMs: file.mtimeMs,
        hash: prepared.hash,
        chunks: prepared.chunks,
        graph: prepared.graph,
      });
      counts.chunks += prepared.chunks.length;
      if (previous) counts.changed++;
      else counts.added++;
  }
}

/** True for a path that is one of the scope's paths or lies under one of its folders. */
function scopeTest(scope: readonly string[]): (relPath: string) => boolean {
  const named = new Set(scope);
  return (relPath) => {
    if (named.has(relPath)) return true;
    for (let slash = relPath.indexOf("/"); slash > 0; slash = relPath.indexOf("/", slash + 1)) {
      if (named.has(relPath.slice(0, slash))) return true;
    }
    return false;
  };
}

async function resolveRoot(root: string): Promise<string> {
  try {
    const real = await realpath(root);
    if ((await stat(real)).isDirectory()) return real;
  } catch {
    // Reported below as a missing folder.
  }
  throw new PathNotFoundError(root, "folder to index");
}

function addSkips(into: SkipCounts, from: SkipCounts): void {
  for (const reason of SKIP_REASONS) into[reason] += from[reason];
}
