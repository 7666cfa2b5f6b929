import cliProgress from "cli-progress";
import type { IndexProgress } from "../ingest/index-resources.js";

/**
 * Shows indexing progress as a bar on stderr when it is a terminal, and not at
 * all otherwise (pipes and CI logs get only the summary).
 */
export function indexProgressReporter(enabled: boolean): {
  onProgress: (progress: IndexProgress) => void;
  stop: () => void;
} {
  if (!enabled || !process.stderr.isTTY)
    return { onProgress: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: "indexing {root} [{bar}] {value}/{total} files · {eta_formatted} left",
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    onProgress: (progress) => {
      if (progress.phase !== "index") return;
      if (!started) {
        bar.start(progress.total, progress.done, { root: progress.root });
        started = true;
      }
      bar.setTotal(progress.total);
      bar.update(progress.done, { root: progress.root });
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}
