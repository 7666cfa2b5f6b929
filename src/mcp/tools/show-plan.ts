import { json } from "../tool-result.js";
import { planId } from "./plan-fields.js";
import type { ToolContext } from "./tool-context.js";

/** `show_plan`: show a plan. */
export function registerShowPlan({ server, engine, guarded }: ToolContext): void {
  server.registerTool(
    "show_plan",
    {
      title: "Show a plan",
      description: "A plan with its decisions, status and parent.",
      inputSchema: { plan_id: planId },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) => guarded(async () => json(await engine.plans.show(args.plan_id)), extra),
  );
}
