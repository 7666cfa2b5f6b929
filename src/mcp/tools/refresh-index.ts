import { json } from "../tool-result.js";
import type { Extra, ToolContext } from "./tool-context.js";

/** `refresh_index`: refresh the index. */
export function registerRefreshIndex({ server, engine, ungated, stopping }: ToolContext): void {
  server.registerTool(
    "refresh_index",
    {
      title: "Refresh the index",
      description:
        "Re-index what changed since the last run (incremental; sends progress notifications). If a refresh is already running, waits for it and returns its report.",
      inputSchema: {},
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    // Not in turns: every caller shares the one refresh, which would hold a turn for minutes.
    (_args, extra: Extra) =>
      ungated(async () => {
        const token = extra._meta?.progressToken;
        const report = await engine.refresh({
          ...(stopping ? { signal: stopping } : {}),
          onProgress: (progress) => {
            if (token === undefined || progress.phase === "discover") return;
            void extra
              .sendNotification({
                method: "notifications/progress",
                params: {
                  progressToken: token,
                  progress: progress.done,
                  total: progress.total,
                  message:
                    progress.phase === "index"
                      ? `indexing ${progress.root}`
                      : progress.phase === "history"
                        ? `reading the git history of ${progress.root}`
                        : "writing contexts",
                },
              })
              .catch(() => undefined);
          },
        });
        return json({
          added: report.added,
          changed: report.changed,
          removed: report.removed,
          unchanged: report.unchanged,
          chunks: report.chunks,
          skipped: report.skipped,
          missingRoots: report.missingRoots,
          elapsedMs: report.elapsedMs,
          contexts: {
            generator: report.contexts.generator,
            reason: report.contexts.reason,
            report: report.contexts.report,
          },
        });
      }),
  );
}
