import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ContextEngine } from "../engine/context-engine.js";
import { MCP_LIMITS } from "./limits.js";
import { type Guarded, json } from "./tool-result.js";

const planId = z.string().min(1).max(40).describe("The plan's id (create_plan gave it).");
const words = z.string().min(1).max(MCP_LIMITS.maxTextLength);

/** Plans and decisions: create_plan, record_decision, close_plan and show_plan. */
export function registerPlanTools(
  server: McpServer,
  engine: ContextEngine,
  guarded: Guarded,
): void {
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

  server.registerTool(
    "record_decision",
    {
      title: "Record a decision",
      description:
        "Record a decision in an open plan: what was decided, why, the alternatives not taken and, once known, the outcome.",
      inputSchema: {
        plan_id: planId,
        what: words.describe("What was decided."),
        why: words.describe("Why."),
        alternatives: z
          .array(words)
          .max(20)
          .optional()
          .describe("Options considered and not taken."),
        outcome: words.optional().describe("What came of it."),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    (args, extra) =>
      guarded(
        async () =>
          json(
            await engine.plans.decide(args.plan_id, {
              what: args.what,
              why: args.why,
              alternatives: args.alternatives ?? [],
              outcome: args.outcome ?? null,
            }),
          ),
        extra,
      ),
  );

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
