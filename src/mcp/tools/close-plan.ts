import { json } from "../tool-result.js";
import { planId, words } from "./plan-fields.js";
import type { ToolContext } from "./tool-context.js";

/** `close_plan`: close a plan. */
export function registerClosePlan({ server, engine, guarded }: ToolContext): void {
  server.registerTool(
    "close_plan",
    {
      title: "Close a plan",
      description: "Close a plan, with how it ended; its decisions move to the cold tier.",
      inputSchema: { plan_id: planId, outcome: words.optional().describe("How it ended.") },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    (args, extra) =>
      guarded(
        async () => json(await engine.plans.close(args.plan_id, args.outcome ?? null)),
        extra,
      ),
  );
}
