import { z } from "zod";
import { DEFAULT_MAP_BUDGET } from "../../graph/repo-map.js";
import { MCP_LIMITS } from "../limits.js";
import { text } from "../tool-result.js";
import type { ToolContext } from "./tool-context.js";

/** `repo_map`: map the repository. */
export function registerRepoMap({ server, engine, guarded }: ToolContext): void {
  server.registerTool(
    "repo_map",
    {
      title: "Map the repository",
      description:
        "The project's files and their most central definitions as signatures (`⋮` where lines are left out), ranked by PageRank over the code graph, within a hard token budget. With focus, ranked around those files, folders or symbols: what they use and what uses them.",
      inputSchema: {
        budget_tokens: z
          .number()
          .int()
          .min(1)
          .max(MCP_LIMITS.maxBudget)
          .describe(`Most tokens the map may use (ctx map's default is ${DEFAULT_MAP_BUDGET}).`),
        focus: z
          .array(z.string().min(1).max(1000))
          .max(50)
          .optional()
          .describe(
            "Files, folders (relative to the project root) or symbol names to rank around.",
          ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(async () => {
        const map = await engine.repoMap({
          budget: args.budget_tokens,
          ...(args.focus ? { focus: args.focus } : {}),
        });
        const unknown =
          map.unknownFocus.length > 0
            ? `; focus left out (no such file, folder or definition): ${map.unknownFocus.join(", ")}`
            : "";
        const summary = `${map.files.length} files, ${map.files.reduce((n, f) => n + f.definitions.length, 0)} of ${map.definitions} definitions, ${map.tokens} of ${map.budget} tokens${unknown}`;
        return text(map.text === "" ? "(nothing fits the budget)" : map.text, summary);
      }, extra),
  );
}
