import type { ContextEngine } from "../engine/context-engine.js";
import type { ProjectWatcher, WatchReport } from "../watch/project-watcher.js";
import { writeErr } from "./output.js";

/** One line on stderr for what the watcher did; `ready` and batches only when `verbose`. */
export function printWatchReport(report: WatchReport, verbose: boolean): void {
  const line = describeReport(report, verbose);
  if (line) writeErr(`ctx: ${line}\n`);
}

function describeReport(report: WatchReport, verbose: boolean): string | null {
  switch (report.kind) {
    case "ready":
      return verbose ? `watching ${report.roots.join(", ")} for changes` : null;
    case "indexed":
      if (!verbose) return null;
      return (
        `${report.full ? "re-indexed every root" : `indexed ${report.paths} changed path(s)`}: ` +
        `${report.added} added, ${report.changed} changed, ${report.removed} removed in ${report.elapsedMs} ms`
      );
    case "root-missing":
      return `root ${report.root} is gone: its files stay in the index (ctx index --forget ${report.root} drops them); watching the other roots`;
    case "root-back":
      return `root ${report.root} is back: re-indexing it`;
    case "failed":
      return report.message;
    case "polling": {
      const every = `looking for changes every ${(report.everyMs / 1000).toFixed(1)} s`;
      if (report.reason) return `${every}: ${report.reason}`;
      return verbose ? `${every} ([watch] poll_ms)` : null;
    }
  }
}

/**
 * Starts the watcher (`upToDate`: the caller has just refreshed the index); a failure to watch (the system's limit on watches falls
 * back to polling instead) is reported and leaves the caller serving without it.
 */
export async function startWatching(
  engine: ContextEngine,
  verbose: boolean,
  upToDate = false,
): Promise<ProjectWatcher | null> {
  const { ProjectWatcher } = await import("../watch/project-watcher.js");
  try {
    return await ProjectWatcher.start(engine, {
      onReport: (report) => printWatchReport(report, verbose),
      upToDate,
    });
  } catch (error) {
    writeErr(
      `ctx: watching for changes failed: ${(error as Error).message}; the index is refreshed on request only\n`,
    );
    return null;
  }
}

/** Resolves on the first SIGINT or SIGTERM; `dispose` removes the handlers. */
export function untilSignal(): { readonly stopped: Promise<void>; dispose(): void } {
  let onSignal: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    onSignal = () => resolve();
  });
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  return {
    stopped,
    dispose: () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}
