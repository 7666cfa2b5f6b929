import { randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { ServeLimits } from "../config/serve-limits.js";
import { UsageError } from "../core/errors.js";
import type { ContextEngine } from "../engine/context-engine.js";
import { createMcpServer } from "./create-server.js";
import { HttpSessions } from "./http-sessions.js";
import { MCP_LIMITS } from "./limits.js";
import { RequestGate } from "./request-gate.js";

export interface HttpServeOptions {
  readonly host: string;
  readonly port: number;
  /** Required as `Authorization: Bearer …` when set (from CTX_MCP_TOKEN). */
  readonly token?: string | undefined;
  /** Hosts the Host header may name besides the bound one (for reverse proxies). */
  readonly extraAllowedHosts?: readonly string[];
  /** Sessions and tool calls taken on at once (default: the project's `[serve]` settings). */
  readonly limits?: ServeLimits;
  /** The turns tool calls take (default: one made from `limits`). */
  readonly gate?: RequestGate;
  /** Aborts the refreshes that tools start, when the server stops. */
  readonly stopping?: AbortSignal;
}

export interface RunningHttpServer {
  readonly url: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/**
 * Serves MCP over Streamable HTTP at `/mcp`, one session per client. Binds to
 * loopback by default; checks Host and Origin (DNS-rebinding protection),
 * a bearer token when configured, and the size of every request. Sessions are
 * bounded in number and idle time, tool calls of all sessions take turns
 * (see HttpSessions and RequestGate).
 */
export async function serveHttp(
  engine: ContextEngine,
  options: HttpServeOptions,
): Promise<RunningHttpServer> {
  if (!LOOPBACK.has(options.host) && !options.token) {
    throw new UsageError(
      `serving on ${options.host} (not loopback) needs a token: set CTX_MCP_TOKEN`,
    );
  }
  const limits = options.limits ?? engine.config.serve;
  const sessions = new HttpSessions(limits);
  const gate = options.gate ?? new RequestGate(limits);
  const http: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        respond(response, 500, `internal error: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const hostForUrl =
    options.host.includes(":") && !options.host.startsWith("[")
      ? `[${options.host}]`
      : options.host;
  const allowedHosts = [
    `${hostForUrl}:${port}`,
    ...(LOOPBACK.has(options.host)
      ? [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]
      : []),
    ...(options.extraAllowedHosts ?? []),
  ];
  const allowedOrigins = allowedHosts.flatMap((host) => [`http://${host}`, `https://${host}`]);

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://placeholder");
    if (url.pathname !== "/mcp")
      return respond(response, 404, "not found: the MCP endpoint is /mcp");
    if (!allowedHosts.includes(request.headers.host ?? ""))
      return respond(response, 403, "forbidden: unexpected Host header");
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.includes(origin))
      return respond(response, 403, "forbidden: unexpected Origin");
    if (options.token && !bearerMatches(request.headers.authorization, options.token)) {
      return respond(response, 401, "unauthorized: send Authorization: Bearer <CTX_MCP_TOKEN>");
    }
    const sessionId = request.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.use(sessionId) : undefined;
    if (existing) {
      // The session counts as in use (not idle) until this request's answer is done.
      response.once("close", existing.done);
      const { transport } = existing.session;
      if (request.method !== "POST") return transport.handleRequest(request, response);
      const message = await readMessage(request, response);
      return message === undefined
        ? undefined
        : transport.handleRequest(request, response, message);
    }
    if (request.method !== "POST")
      return respond(response, 400, "bad request: missing or unknown mcp-session-id");
    const message = await readMessage(request, response);
    if (message === undefined) return;
    if (sessionId !== undefined) return respond(response, 404, "unknown session: initialize again");
    if (!isInitializeRequest(message))
      return respond(response, 400, "bad request: start with an initialize request");
    const room = sessions.reserve();
    if (!room)
      return respond(
        response,
        503,
        `busy: ${sessions.size} sessions are in use ([serve] max_sessions); try again when one ends`,
      );
    const id = randomUUID();
    try {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
      const server = await createMcpServer(engine, {
        gate,
        ...(options.stopping ? { stopping: options.stopping } : {}),
      });
      transport.onclose = () => sessions.delete(id);
      await server.connect(transport);
      const session = room.add(id, { server, transport });
      response.once("close", () => sessions.done(session));
      await transport.handleRequest(request, response, message);
      // An initialize the transport refused made no session.
      if (transport.sessionId === undefined) await server.close();
    } finally {
      room.cancel();
    }
  }

  return {
    url: `http://${hostForUrl}:${port}/mcp`,
    close: async () => {
      await sessions.closeAll();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function respond(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith("Bearer ") ? header.slice(7) : "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The request's JSON-RPC message; undefined when it was refused (too large, not JSON) with an answer sent. */
async function readMessage(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<unknown | undefined> {
  const body = await readBody(request);
  if (body === null) {
    respond(response, 413, `request too large: at most ${MCP_LIMITS.maxBodyBytes} bytes`);
    return undefined;
  }
  try {
    return JSON.parse(body) as unknown;
  } catch {
    respond(response, 400, "bad request: the body is not JSON");
    return undefined;
  }
}

/** The body as text, or null when it is larger than the limit. */
async function readBody(request: IncomingMessage): Promise<string | null> {
  const declared = Number(request.headers["content-length"] ?? 0);
  if (declared > MCP_LIMITS.maxBodyBytes) return null;
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of request) {
    size += (part as Buffer).length;
    if (size > MCP_LIMITS.maxBodyBytes) return null;
    parts.push(part as Buffer);
  }
  return Buffer.concat(parts).toString("utf8");
}
