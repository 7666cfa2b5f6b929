import { z } from "zod";
import { describeRun } from "../../assemble/renderers.js";
import { MCP_LIMITS } from "../limits.js";
import { text } from "../tool-result.js";
import { type ToolContext, taskText } from "./tool-context.js";

/** `get_context`: get context for a task. */
export function registerGetContext({ server, engine, guarded }: ToolContext): void {
  server.registerTool(
    "get_context",
    {
      title: "Get context for a task",
      description:
        "Assemble the code and documentation most relevant to a task, within a hard token budget. Returns the fragments (each with its path, line range and score) and a summary of which retrieval strategies produced them. Call this before reading files one by one.",
      inputSchema: {
        task: taskText.describe(
          "The task or question, in plain words (e.g. 'how are retries configured?').",
        ),
        budget_tokens: z
          .number()
          .int()
          .min(1)
          .max(MCP_LIMITS.maxBudget)
          .optional()
          .describe(
            `Most tokens the returned context may use (default ${engine.config.query.budget}).`,
          ),
        paths: z
          .array(z.string().max(1000))
          .max(50)
          .optional()
          .describe("Only use files under these paths, relative to the project root."),
        focus: z
          .array(z.string().min(1).max(1000))
          .max(50)
          .optional()
          .describe(
            "What you are working on: files or folders (relative to the project root) and/or symbol names; the code graph is walked from them.",
          ),
        strategies: z
          .array(z.string())
          .max(20)
          .optional()
          .describe(
            "Run these retrieval strategies instead of the project's (see list_strategies).",
          ),
        format: z
          .enum(["markdown", "xml", "json"])
          .optional()
          .describe("How the context is rendered (default markdown)."),
        plan_id: z
          .string()
          .max(40)
          .optional()
          .describe(
            "The plan you work in (create_plan): its decisions and its ancestors' join the context.",
          ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(async () => {
        const result = await engine.query({
          signal: extra.signal,
          ...(args.plan_id ? { planId: args.plan_id } : {}),
          task: args.task,
          budget: args.budget_tokens ?? engine.config.query.budget,
          format: args.format ?? "markdown",
          ...(args.paths ? { paths: args.paths } : {}),
          ...(args.focus ? { focus: args.focus } : {}),
          ...(args.strategies ? { strategies: args.strategies } : {}),
        });
        const summary = [
          `request ${result.requestId}: ${result.fragments.length} fragments, ${result.tokensUsed} of ${result.budget} tokens` +
            (result.dropped > 0 ? `, ${result.dropped} candidates left out for budget` : "") +
            (engine.refreshing
              ? " (the index is being refreshed; this answer uses what was committed)"
              : "") +
            (result.unknownFocus.length > 0
              ? `; focus left out (${engine.config.graph ? "no such file, folder or definition" : "the code graph is off"}): ${result.unknownFocus.join(", ")}`
              : ""),
          ...result.provenance.map((run) => `- ${describeRun(run)}`),
          "Call explain with this request id for details, read_fragment for more lines.",
        ];
        return text(result.output, summary.join("\n"));
      }, extra),
  );
}
