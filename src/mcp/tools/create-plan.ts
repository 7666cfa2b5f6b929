import { z } from "zod";
import { json } from "../tool-result.js";
import { words } from "./plan-fields.js";
import type { ToolContext } from "./tool-context.js";

/** `create_plan`: start a plan. */
export function registerCreatePlan({ server, engine, guarded }: ToolContext): void {
  server.registerTool(
    "create_plan",
    {
      title: "Start a plan",
      description:
        "Start a plan for a piece of work (optionally inside a parent plan). Decisions recorded in it come back as context in get_context calls that pass its plan_id, with those of its ancestors. Returns the plan with its id.",
      inputSchema: {
        title: words.describe("What the plan is for."),
        parent_id: z.string().min(1).max(40).optional().describe("The plan this one is part of."),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    (args, extra) =>
      guarded(
        async () => json(await engine.plans.create(args.title, args.parent_id ?? null)),
        extra,
      ),
  );
}
