import { IndexBusyError, IndexNotWritableError } from "../core/errors.js";
import type { ContextEngine } from "../engine/context-engine.js";
import { formatIndexReport, missingRootLine } from "./format.js";
import { formatContexts } from "./format-contexts.js";
import { interruptible } from "./interrupt.js";
import { writeErr } from "./output.js";
import { indexProgressReporter } from "./progress.js";

/**
 * Makes the index ready for a query: builds it when the project has none yet,
 * otherwise refreshes the files that changed under the roots it covers (unless
 * the user said --no-refresh, or a running `ctx watch` or `ctx serve` watches
 * the project and has written every change it saw). Reports go to stderr; stdout stays the answer.
 */
export async function ensureIndex(
  engine: ContextEngine,
  refresh: boolean,
  options: {
    /** Longest to wait for a running watcher to write a change; then answer from what is stored. */
    readonly watcherWaitMs?: number;
    /** The command then uses the code graph: it is read while the tree is checked. */
    readonly graph?: boolean;
  } = {},
): Promise<void> {
  const resources = await engine.store.documents.listResources();
  const { readOnly } = engine.store;
  if (resources.length > 0 && readOnly !== null) {
    writeErr(
      `ctx: ${engine.indexPath}: answering from the index as it is, opened read-only: ${readOnly}\n`,
    );
    return;
  }
  if (resources.length > 0 && !refresh) return;
  if (resources.length > 0) {
    const { watcherKeepsFresh } = await import("../watch/watch-claim.js");
    const patient = options.watcherWaitMs === undefined;
    const word = await watcherKeepsFresh(engine.store, {
      ...(patient ? {} : { maxWaitMs: options.watcherWaitMs }),
      onWait: (pid) => {
        if (patient)
          writeErr(`ctx: waiting for the running watcher (pid ${pid}) to index what changed\n`);
      },
    });
    // Still writing when a caller that cannot wait (the prompt hook) stops: what is stored answers.
    if (word.kind === "fresh" || (word.kind === "writing" && !patient)) {
      if (process.env.CTX_DEBUG) {
        const state = word.kind === "fresh" ? "keeps the index up to date" : "is still writing";
        writeErr(`ctx: not refreshed: a watcher (pid ${word.pid}) ${state}\n`);
      }
      return;
    }
  }
  if (options.graph && resources.length > 0) engine.warmGraph();
  const progress = indexProgressReporter(true);
  try {
    const report = await interruptible((signal) => {
      const options = { onProgress: progress.onProgress, embed: false, signal };
      // An index that exists is refreshed only when git says a file changed.
      return resources.length > 0
        ? engine.refreshIfChanged(options)
        : engine.index(undefined, options);
    }).catch((caught: unknown) => {
      // An index that exists can still answer: a refresh that could not get the
      // write lock (another process writing for long) or could not write (a full
      // disk) is worth a warning, not a failure.
      const error = engine.store.explainFailure(caught);
      const answerable = error instanceof IndexBusyError || error instanceof IndexNotWritableError;
      if (resources.length === 0 || !answerable) throw error;
      progress.stop();
      writeErr(`ctx: not refreshed, answering from the index as it is: ${error.message}\n`);
      return null;
    });
    progress.stop();
    if (report === null) return;
    if (resources.length === 0) {
      writeErr(
        `${formatIndexReport(report, engine.indexPath)}\n${formatContexts(report.contexts)}\n`,
      );
    } else if (report.added + report.changed + report.removed > 0) {
      writeErr(
        `Refreshed: ${report.added} added, ${report.changed} changed, ${report.removed} removed\n`,
      );
    }
    for (const root of report.missingRoots) writeErr(`${missingRootLine(root)}\n`);
  } finally {
    progress.stop();
  }
}
