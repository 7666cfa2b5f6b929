import { createRequire } from "node:module";
import type CliProgress from "cli-progress";
import type { ContextualizeProgress } from "../contextualize/contextualize-index.js";
import type { EmbedProgress } from "../embed/embed-index.js";
import type { HistoryProgress } from "../history/ingest-history.js";
import type { IndexProgress } from "../ingest/index-run.js";
import { visibleLine } from "../text/visible-text.js";
import { writeErr } from "./output.js";

type Progress = IndexProgress | HistoryProgress | ContextualizeProgress | EmbedProgress;

/**
 * Shows indexing progress as a bar on stderr when it is a terminal, and not at
 * all otherwise (pipes and CI logs get only the summary). `verbose` also says
 * on stderr, in one line, when each phase begins, terminal or not.
 */
export function indexProgressReporter(
  enabled: boolean,
  verbose = false,
): {
  onProgress: (progress: Progress) => void;
  stop: () => void;
} {
  const phases = verbose ? phaseLines() : () => undefined;
  if (!enabled || !process.stderr.isTTY) return { onProgress: phases, stop: () => undefined };
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
  let label = "";
  return {
    onProgress: (progress) => {
      if (progress.phase === "discover") return;
      const payload = { label: phaseLabel(progress), unit: UNITS[progress.phase] };
      if (!started || phase !== progress.phase || label !== payload.label) {
        if (started) bar.stop();
        phases(progress);
        label = payload.label;
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

const UNITS = { index: "files", history: "commits", embed: "chunks", contextualize: "documents" };

/** What a phase is doing, for the bar and the verbose line. */
function phaseLabel(progress: Exclude<Progress, { phase: "discover" }>): string {
  switch (progress.phase) {
    case "index":
      return `indexing ${visibleLine(progress.root)}`;
    case "history":
      return `reading the git history of ${visibleLine(progress.root)}`;
    case "embed":
      return "embedding";
    case "contextualize":
      return "writing contexts";
  }
}

/** One stderr line when a phase (or the root it works on) changes: `ctx index --verbose`. */
function phaseLines(): (progress: Progress) => void {
  let last = "";
  return (progress) => {
    if (progress.phase === "discover") return;
    const label = phaseLabel(progress);
    if (label === last) return;
    last = label;
    writeErr(`ctx: ${label} (${progress.total} ${UNITS[progress.phase]})\n`);
  };
}
