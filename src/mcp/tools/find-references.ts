import { z } from "zod";
import { MCP_LIMITS } from "../limits.js";
import { json } from "../tool-result.js";
import type { ToolContext } from "./tool-context.js";

/** `find_references`: find where a symbol is used. */
export function registerFindReferences({ server, engine, guarded }: ToolContext): void {
  server.registerTool(
    "find_references",
    {
      title: "Find where a symbol is used",
      description:
        "A symbol's definitions and every place that uses it: {symbol, definitions: [{path, startLine, endLine, kind, signature}], references: [{path, line, kind}]}, kind one of call, import, type, inherit, use. With path, the definition in that file and only the uses that resolve to it (same file, files importing it). A method's uses are matched by name (a call of that name on any object counts): pass path to keep those that resolve to its definition.",
      inputSchema: {
        symbol: z
          .string()
          .min(1)
          .max(MCP_LIMITS.maxTextLength)
          .describe("The symbol's name; Owner.name for a member."),
        path: z.string().max(1000).optional().describe("The file holding the definition meant."),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(async () => json(await engine.findReferences(args.symbol, args.path)), extra),
  );
}
