import { json } from "../tool-result.js";
import type { ToolContext } from "./tool-context.js";

/** `index_status`: index status. */
export function registerIndexStatus({ server, engine, guarded }: ToolContext): void {
  server.registerTool(
    "index_status",
    {
      title: "Index status",
      description:
        "What the index covers and how fresh it is: files, chunks, skipped files by reason, last indexed, files changed since, the context generator and strategies in use.",
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (_args, extra) =>
      guarded(async () => {
        const [status, stale] = await Promise.all([engine.status(), engine.staleness()]);
        return json({ ...status, staleness: stale, refreshing: engine.refreshing });
      }, extra),
  );
}
