import { createRequire } from "node:module";
import type CliProgress from "cli-progress";
import type { ContextualizeProgress } from "../contextualize/contextualize-index.js";
import type { EmbedProgress } from "../embed/embed-index.js";
import type { IndexProgress } from "../ingest/index-resources.js";
import { visibleLine } from "../text/visible-text.js";

/**
 * Shows indexing progress as a bar on stderr when it is a terminal, and not at
 * all otherwise (pipes and CI logs get only the summary).
 */
export function indexProgressReporter(enabled: boolean): {
  onProgress: (progress: IndexProgress | ContextualizeProgress | EmbedProgress) => void;
  stop: () => void;
} {
  if (!enabled || !process.stderr.isTTY)
    return { onProgress: () => undefined, stop: () => undefined };
  // Loaded only for a terminal that shows the bar: pipes, hooks and CI never pay for it.
  const cliProgress = createRequire(import.meta.url)("cli-progress") as typeof CliProgress;
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: "{label} [{bar}] {value}/{total} {unit} · {eta_formatted} left",
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let phase = "";
  return {
    onProgress: (progress) => {
      if (progress.phase === "discover") return;
      const payload =
        progress.phase === "index"
          ? { label: `indexing ${visibleLine(progress.root)}`, unit: "files" }
          : progress.phase === "embed"
            ? { label: "embedding", unit: "chunks" }
            : { label: "writing contexts", unit: "documents" };
      if (!started || phase !== progress.phase) {
        if (started) bar.stop();
        bar.start(progress.total, progress.done, payload);
        started = true;
        phase = progress.phase;
      }
      bar.setTotal(progress.total);
      bar.update(progress.done, payload);
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}
