import { z } from "zod";
import { json } from "../tool-result.js";
import { planId, words } from "./plan-fields.js";
import type { ToolContext } from "./tool-context.js";

/** `record_decision`: record a decision. */
export function registerRecordDecision({ server, engine, guarded }: ToolContext): void {
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
}
