import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { ContextEngine } from "../engine/context-engine.js";
import { createMcpServer } from "./create-server.js";

/**
 * Serves MCP over stdin/stdout until the client disconnects (or `until`
 * resolves: a signal). Nothing else may write to stdout.
 */
export async function serveStdio(engine: ContextEngine, until?: Promise<void>): Promise<void> {
  const server = await createMcpServer(engine);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
    until?.then(resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
