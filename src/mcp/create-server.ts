import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { ContextEngine } from "../engine/context-engine.js";
import { VERSION } from "../version.js";
import type { RequestGate } from "./request-gate.js";
import { type Guarded, toolResult } from "./tool-result.js";
import { ALL_TOOLS } from "./tools/all-tools.js";

export interface McpServerOptions {
  /** Turns shared by every session of a server (default: none, calls run as they come). */
  readonly gate?: RequestGate;
  /** Aborts the refreshes refresh_index starts, when the server stops. */
  readonly stopping?: AbortSignal;
}

/**
 * One validator for every session: each would otherwise build its own (a
 * schema compiler with its formats), a cost paid per client at cold start.
 */
let validator: jsonSchemaValidator | undefined;

/**
 * The MCP face of a project: each tool calls one engine method; errors become
 * `isError` results in toolResult. README / AGENTS.md-style files are resources.
 */
export async function createMcpServer(
  engine: ContextEngine,
  options: McpServerOptions = {},
): Promise<McpServer> {
  const { gate } = options;
  // A tool's store failure (busy, corrupt) comes back as an error naming the index.
  const explained = (call: () => Promise<CallToolResult>) => () =>
    call().catch((error: unknown) => {
      throw engine.store.explainFailure(error);
    });
  const guarded: Guarded = (call, extra) =>
    toolResult(gate ? () => gate.run(explained(call), extra?.signal) : explained(call));
  const ungated: Guarded = (call) => toolResult(explained(call));
  validator ??= new AjvJsonSchemaValidator();
  const server = new McpServer(
    { name: "context-engine", version: VERSION },
    {
      instructions:
        "Use get_context first for any task about this project; it returns the most relevant code and docs within a token budget, with where each piece came from.",
      jsonSchemaValidator: validator,
    },
  );

  const tools = { server, engine, guarded, ungated, stopping: options.stopping };
  for (const register of ALL_TOOLS) register(tools);

  for (const pinned of await engine.pinnedFiles()) {
    server.registerResource(
      `${pinned.path}`,
      `ctx://pinned/${pinned.resourceId}/${encodeURIComponent(pinned.path)}`,
      {
        title: pinned.path,
        description: `${pinned.path} at ${pinned.root}`,
        mimeType: "text/markdown",
      },
      async (uri) => ({
        contents: [
          { uri: uri.href, mimeType: "text/markdown", text: engine.readPinnedFile(pinned) },
        ],
      }),
    );
  }
  return server;
}
