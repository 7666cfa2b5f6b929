import { cpSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { type RunningHttpServer, serveHttp } from "../../src/mcp/serve-http.js";
import { gitRepo } from "../helpers/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));
const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

function project(): string {
  const root = gitRepo({ "README.md": "# Demo\n\nRetries.\n" });
  cpSync(FIXTURES, join(root, "src"), { recursive: true });
  return root;
}

function firstText(result: CallToolResult): string {
  const part = result.content[0];
  return part?.type === "text" ? part.text : "";
}

describe("MCP over stdio (a real subprocess)", () => {
  it("indexes on start and answers get_context through the SDK's client", async () => {
    const root = project();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve"],
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: root, XDG_CONFIG_HOME: root },
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-test", version: "1" });
    await client.connect(transport);
    try {
      const refreshed = JSON.parse(
        firstText(
          (await client.callTool({ name: "refresh_index", arguments: {} })) as CallToolResult,
        ),
      ) as {
        added: number;
        unchanged: number;
      };
      expect(refreshed.added + refreshed.unchanged).toBe(12);
      const result = (await client.callTool({
        name: "get_context",
        arguments: { task: "RetryRunner run", budget_tokens: 600 },
      })) as CallToolResult;
      expect(firstText(result)).toMatch(/## src\/sample\.ts/);
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe("MCP over Streamable HTTP (a real port on 127.0.0.1)", () => {
  let engine: ContextEngine;
  let server: RunningHttpServer;
  const token = "test-token-123";

  beforeAll(async () => {
    const root = project();
    engine = await ContextEngine.open({ start: root, cwd: root, env: { XDG_CONFIG_HOME: root } });
    await engine.index([root]);
    server = await serveHttp(engine, { host: "127.0.0.1", port: 0, token });
  });

  afterAll(async () => {
    await server.close();
    await engine.close();
  });

  it("serves tools to the SDK's client with the bearer token", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: "http-test", version: "1" });
    await client.connect(transport);
    try {
      const result = (await client.callTool({
        name: "search",
        arguments: { query: "RetryConfig", limit: 2 },
      })) as CallToolResult;
      expect(JSON.parse(firstText(result))[0].path).toMatch(/^src\//);
    } finally {
      await client.close();
    }
  });

  function raw(options: { headers?: Record<string, string>; body?: string }): Promise<number> {
    const url = new URL(server.url);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...options.headers,
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(
        options.body ??
          JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: "2025-06-18",
              capabilities: {},
              clientInfo: { name: "raw", version: "1" },
            },
          }),
      );
    });
  }

  it("refuses a missing or wrong token", async () => {
    expect(await raw({})).toBe(401);
    expect(await raw({ headers: { Authorization: "Bearer wrong" } })).toBe(401);
    expect(await raw({ headers: { Authorization: `Bearer ${token}` } })).toBe(200);
  });

  it("refuses a foreign Host or Origin (DNS rebinding)", async () => {
    const auth = { Authorization: `Bearer ${token}` };
    expect(await raw({ headers: { ...auth, Host: "evil.example.com" } })).toBe(403);
    expect(await raw({ headers: { ...auth, Origin: "http://evil.example.com" } })).toBe(403);
    expect(await raw({ headers: { ...auth, Origin: new URL(server.url).origin } })).toBe(200);
  });

  it("refuses oversized requests", async () => {
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { pad: "x".repeat(2 * 1024 * 1024) },
    });
    expect(await raw({ headers: { Authorization: `Bearer ${token}` }, body: huge })).toBe(413);
  });

  it("will not bind beyond loopback without a token", async () => {
    await expect(serveHttp(engine, { host: "0.0.0.0", port: 0 })).rejects.toThrow(
      /needs a token: set CTX_MCP_TOKEN/,
    );
  });
});
