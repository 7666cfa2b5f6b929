import { z } from "zod";
import { SYMBOL_KINDS } from "../../core/graph.js";
import { definitionView } from "../../engine/symbol-lookup.js";
import { MCP_LIMITS } from "../limits.js";
import { json } from "../tool-result.js";
import type { ToolContext } from "./tool-context.js";

/** `find_symbol`: find a symbol's definitions. */
export function registerFindSymbol({ server, engine, guarded }: ToolContext): void {
  server.registerTool(
    "find_symbol",
    {
      title: "Find a symbol's definitions",
      description:
        "Definitions (function, method, class, interface, type, enum, constant, module, namespace, impl) by name: exact, else without case; 'name*' for a prefix; 'Owner.name' (or 'Owner::name') for a method of Owner. Returns name, kind, path, lines, parent, signature and doc (its doc comment or docstring; empty when it has none).",
      inputSchema: {
        name: z.string().min(1).max(MCP_LIMITS.maxTextLength).describe("The symbol's name."),
        kind: z.enum(SYMBOL_KINDS).optional().describe("Only definitions of this kind."),
        path: z
          .string()
          .max(1000)
          .optional()
          .describe("Only definitions in this file or folder (relative to the project root)."),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(async () => {
        const found = await engine.findSymbols(args.name, {
          ...(args.kind ? { kind: args.kind } : {}),
          ...(args.path ? { path: args.path } : {}),
          limit: MCP_LIMITS.maxResults,
        });
        return json(found.map(definitionView));
      }, extra),
  );
}
