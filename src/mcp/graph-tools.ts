import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { SYMBOL_KINDS } from "../core/graph.js";
import type { ContextEngine } from "../engine/context-engine.js";
import { definitionView } from "../engine/symbol-lookup.js";
import { DEFAULT_MAP_BUDGET } from "../graph/repo-map.js";
import { MCP_LIMITS } from "./limits.js";
import { type Guarded, json, text } from "./tool-result.js";

/** The code-graph tools: find_symbol, find_references and repo_map. */
export function registerGraphTools(
  server: McpServer,
  engine: ContextEngine,
  guarded: Guarded,
): void {
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
