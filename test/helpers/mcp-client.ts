import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { createMcpServer } from "../../src/mcp/create-server.js";

/**
 * A project indexed at `root` and the real MCP SDK client connected to its
 * server in memory; `close` closes both.
 */
export async function indexedMcpClient(
  root: string,
): Promise<{ engine: ContextEngine; client: Client; close: () => Promise<void> }> {
  const engine = await ContextEngine.open({
    start: root,
    cwd: root,
    env: { XDG_CONFIG_HOME: root },
  });
  await engine.index([root]);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = await createMcpServer(engine);
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(clientSide);
  return {
    engine,
    client,
    close: async () => {
      await client.close();
      await engine.close();
    },
  };
}
