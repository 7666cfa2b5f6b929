import { cpSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { DEFAULT_SERVE_LIMITS, type ServeLimits } from "../../src/config/serve-limits.js";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { RequestGate } from "../../src/mcp/request-gate.js";
import { type RunningHttpServer, serveHttp } from "../../src/mcp/serve-http.js";
import { gitRepo, tempDir, writeFiles } from "../helpers/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));

let engine: ContextEngine;
let server: RunningHttpServer | null = null;
const clients: Client[] = [];

beforeAll(async () => {
  const root = gitRepo({ "README.md": "# Demo\n\nRetries.\n" });
  cpSync(FIXTURES, join(root, "src"), { recursive: true });
  engine = await ContextEngine.open({ start: root, cwd: root, env: { XDG_CONFIG_HOME: root } });
  await engine.index([root]);
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await server?.close();
  server = null;
});

afterAll(async () => {
  await engine.close();
});

async function serve(limits: Partial<ServeLimits>, gate?: RequestGate): Promise<string> {
  server = await serveHttp(engine, {
    host: "127.0.0.1",
    port: 0,
    limits: { ...DEFAULT_SERVE_LIMITS, ...limits },
    ...(gate ? { gate } : {}),
  });
  return server.url;
}

async function sdkClient(
  url: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: "limits-test", version: "1" });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** A POST of one JSON-RPC message as plain HTTP: the answer's status, session id and body. */
async function post(
  url: string,
  message: object,
  sessionId?: string,
): Promise<{ status: number; sessionId: string | null; body: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...HEADERS, ...(sessionId ? { "mcp-session-id": sessionId } : {}) },
    body: JSON.stringify({ jsonrpc: "2.0", ...message }),
  });
  return {
    status: response.status,
    sessionId: response.headers.get("mcp-session-id"),
    body: await response.text(),
  };
}

/** A session opened by an `initialize` alone: a client that never closes it. */
async function initialize(
  url: string,
): Promise<{ status: number; sessionId: string; body: string }> {
  const answer = await post(url, {
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    },
  });
  return { ...answer, sessionId: answer.sessionId ?? "" };
}

function listTools(url: string, sessionId: string): Promise<{ status: number; body: string }> {
  return post(url, { id: 2, method: "tools/list" }, sessionId);
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function firstText(result: CallToolResult): string {
  const part = result.content[0];
  return part?.type === "text" ? part.text : "";
}

/** Holds the gate's one running turn until `release` is called, as a long call would. */
function holdTurn(gate: RequestGate): { release: () => void; done: Promise<void> } {
  let release: () => void = () => undefined;
  const done = gate.run(() => new Promise<void>((resolve) => (release = resolve)));
  return { release: () => release(), done };
}

describe("tool calls over HTTP take turns", () => {
  it("answers a call past the waiting line with a clear busy error, and the waiting one in its turn", async () => {
    const gate = new RequestGate({ maxRunning: 1, maxWaiting: 1 });
    const url = await serve({}, gate);
    const { client } = await sdkClient(url);
    const held = holdTurn(gate);
    const waiting = client.callTool({
      name: "get_context",
      arguments: { task: "RetryRunner run", budget_tokens: 600 },
    }) as Promise<CallToolResult>;
    await until(() => gate.load.waiting === 1, "the call to wait");
    const refused = (await client.callTool({
      name: "search",
      arguments: { query: "RetryConfig" },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(firstText(refused)).toMatch(
      /^ctx is busy: 1 tool calls running, 1 waiting \(\[serve\] max_running, max_waiting\); try again in a few seconds$/,
    );
    held.release();
    const answered = await waiting;
    expect(answered.isError).toBeFalsy();
    expect(firstText(answered)).toMatch(/## src\/sample\./);
    // With the line empty again, calls are taken at once.
    const next = (await client.callTool({
      name: "search",
      arguments: { query: "RetryConfig" },
    })) as CallToolResult;
    expect(next.isError).toBeFalsy();
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it("lets a waiting call leave the line when it is cancelled or its session ends", async () => {
    const gate = new RequestGate({ maxRunning: 1, maxWaiting: 8 });
    const url = await serve({}, gate);
    const held = holdTurn(gate);
    const first = await sdkClient(url);
    const cancel = new AbortController();
    const cancelled = first.client
      .callTool({ name: "search", arguments: { query: "RetryConfig" } }, undefined, {
        signal: cancel.signal,
      })
      .catch((error: Error) => error);
    const second = await sdkClient(url);
    const ended = second.client
      .callTool({ name: "search", arguments: { query: "RetryConfig" } })
      .catch((error: Error) => error);
    await until(() => gate.load.waiting === 2, "both calls to wait");
    cancel.abort();
    await until(() => gate.load.waiting === 1, "the cancelled call to leave");
    await second.transport.terminateSession();
    await until(() => gate.load.waiting === 0, "the call of the ended session to leave");
    expect(await cancelled).toBeInstanceOf(Error);
    held.release();
    await held.done;
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
    void ended;
  });
});

describe("HTTP sessions are bounded", () => {
  it("closes a session idle for session_idle, and keeps one whose client listens", async () => {
    const url = await serve({ sessionIdleMs: 300 });
    const gone = await initialize(url);
    expect(gone.status).toBe(200);
    expect((await listTools(url, gone.sessionId)).status).toBe(200);
    // The SDK's client keeps its event stream open while connected: it is not idle.
    const { client } = await sdkClient(url);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const late = await listTools(url, gone.sessionId);
    expect(late.status).toBe(404);
    expect(late.body).toMatch(/unknown session: initialize again/);
    const result = (await client.callTool({
      name: "search",
      arguments: { query: "RetryConfig" },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
  });

  it("closes the least recently used idle session for a new one past max_sessions, and refuses one when all are in use", async () => {
    const url = await serve({ maxSessions: 2 });
    const a = await initialize(url);
    const b = await initialize(url);
    expect((await listTools(url, a.sessionId)).status).toBe(200);
    const c = await initialize(url);
    expect(c.status).toBe(200);
    expect((await listTools(url, b.sessionId)).status).toBe(404);
    expect((await listTools(url, a.sessionId)).status).toBe(200);
    expect((await listTools(url, c.sessionId)).status).toBe(200);

    // Both sessions listening on their event streams: neither is idle, so a third is refused.
    const listening = [a, c].map(({ sessionId }) => {
      const stop = new AbortController();
      const opened = fetch(url, {
        headers: { accept: "text/event-stream", "mcp-session-id": sessionId },
        signal: stop.signal,
      });
      return { stop, opened };
    });
    for (const { opened } of listening) expect((await opened).status).toBe(200);
    const refused = await initialize(url);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatch(
      /busy: 2 sessions are in use \(\[serve\] max_sessions\); try again when one ends/,
    );
    // One stops listening: it is idle, and makes room.
    listening[0]?.stop.abort();
    let admitted = await initialize(url);
    for (let tries = 0; admitted.status !== 200 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      admitted = await initialize(url);
    }
    expect(admitted.status).toBe(200);
    expect((await listTools(url, a.sessionId)).status).toBe(404);
    expect((await listTools(url, c.sessionId)).status).toBe(200);
    listening[1]?.stop.abort();
  });

  it("takes its limits from [serve] in the project's ctx.toml", async () => {
    const root = gitRepo({ "README.md": "# Demo\n" });
    // Limits choose no code, keys or destinations: an untrusted project file sets them.
    writeFiles(root, { "ctx.toml": "[serve]\nmax_sessions = 1\nsession_idle_s = 600\n" });
    const own = await ContextEngine.open({
      start: root,
      cwd: root,
      env: { XDG_CONFIG_HOME: root },
    });
    try {
      expect(own.config.serve).toMatchObject({ maxSessions: 1, sessionIdleMs: 600_000 });
      server = await serveHttp(own, { host: "127.0.0.1", port: 0 });
      const first = await initialize(server.url);
      const second = await initialize(server.url);
      expect(second.status).toBe(200);
      expect((await listTools(server.url, first.sessionId)).status).toBe(404);
      expect((await listTools(server.url, second.sessionId)).status).toBe(200);
    } finally {
      await server?.close();
      server = null;
      await own.close();
    }
  });

  it("refuses [serve] values that would leave no room or no bound, naming the key", async () => {
    const refused: readonly (readonly [string, string])[] = [
      ["max_running = 0", "serve.max_running"],
      ["max_sessions = 0", "serve.max_sessions"],
      ["max_waiting = -1", "serve.max_waiting"],
      ["session_idle_s = 1.5", "serve.session_idle_s"],
      ["max_sessions = 1000000", "serve.max_sessions"],
    ];
    for (const [line, key] of refused) {
      const root = tempDir();
      writeFiles(root, { "ctx.toml": `[serve]\n${line}\n` });
      await expect(loadConfig(root, { XDG_CONFIG_HOME: root })).rejects.toThrow(
        new RegExp(`ctx\\.toml: "${key.replace(".", "\\.")}": `),
      );
    }
  });
});
