import { Agent, request } from "node:http";
import { createParser } from "eventsource-parser";
import { CtxError } from "../core/errors.js";
import { VERSION } from "../version.js";
import type { ServerFile } from "./server-file.js";

/** How long the server may stay silent while opening a session: a live one on this machine answers in milliseconds, a busy one in a second or two. */
const HANDSHAKE_TIMEOUT_MS = 3000;

/** How long get_context may take before the hook gives up on the server and answers itself. */
const QUERY_TIMEOUT_MS = 10_000;

/** The protocol revision the hook speaks (one the server's SDK supports). */
const PROTOCOL_VERSION = "2025-06-18";

/** The most of a response body read: the context is bounded by the hook's small budget. */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export interface ServerAnswer {
  /** The rendered context; empty when nothing matched. */
  readonly output: string;
  readonly requestId: string;
  readonly fragments: number;
}

/** The server could not give an answer (gone, busy, refused, too slow): the caller answers itself. */
export class ServerUnavailableError extends CtxError {
  constructor(message: string) {
    super("server_unavailable", message);
  }
}

interface JsonRpcResponse {
  readonly id?: unknown;
  readonly result?: unknown;
  readonly error?: { readonly message?: unknown };
}

/**
 * Asks a running `ctx serve --http` for a task's context the way an MCP
 * client does (initialize, get_context, end the session), over one kept-alive
 * loopback connection. Hand-written rather than the SDK's client because that
 * client's import costs more than the whole answer; the SSE framing is parsed
 * by eventsource-parser.
 */
export async function contextFromServer(
  server: ServerFile,
  task: string,
  budget: number,
): Promise<ServerAnswer> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const headers: Record<string, string> = {
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    ...(server.token ? { authorization: `Bearer ${server.token}` } : {}),
  };
  try {
    const opened = await post(agent, server.url, headers, HANDSHAKE_TIMEOUT_MS, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "ctx-hook", version: VERSION },
      },
    });
    const info = (opened.message.result as { serverInfo?: { name?: unknown } } | undefined)
      ?.serverInfo;
    // Only a Context Engine server gets the prompt.
    if (info?.name !== "context-engine")
      throw new ServerUnavailableError(`${server.url} is not a Context Engine server`);
    const session = opened.sessionId;
    if (!session) throw new ServerUnavailableError(`${server.url} opened no session`);
    const inSession = {
      ...headers,
      "mcp-session-id": session,
      "mcp-protocol-version": PROTOCOL_VERSION,
    };
    try {
      await post(agent, server.url, inSession, HANDSHAKE_TIMEOUT_MS, {
        jsonrpc: "2.0",
        method: "notifications/initialized",
      });
      const called = await post(agent, server.url, inSession, QUERY_TIMEOUT_MS, {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "get_context", arguments: { task, budget_tokens: budget } },
      });
      return answerOf(called.message);
    } finally {
      // The session ends with the answer: servers keep a bounded number of them.
      await send(agent, server.url, "DELETE", inSession, HANDSHAKE_TIMEOUT_MS).catch(
        () => undefined,
      );
    }
  } finally {
    agent.destroy();
  }
}

function answerOf(message: JsonRpcResponse): ServerAnswer {
  if (message.error)
    throw new ServerUnavailableError(
      `the server refused get_context: ${String(message.error.message)}`,
    );
  const result = message.result as
    | { isError?: unknown; content?: { type?: unknown; text?: unknown }[] }
    | undefined;
  const texts = (result?.content ?? []).map((part) =>
    typeof part.text === "string" ? part.text : "",
  );
  if (result?.isError === true || texts.length < 2)
    throw new ServerUnavailableError(
      `get_context failed on the server: ${texts[0] ?? "no result"}`,
    );
  // The summary's first line: "request ID: N fragments, …".
  const summary = /^request (\S+): (\d+) fragments/.exec(texts[1] ?? "");
  if (!summary?.[1] || !summary[2])
    throw new ServerUnavailableError("get_context answered in a form the hook does not know");
  return { output: texts[0] ?? "", requestId: summary[1], fragments: Number(summary[2]) };
}

/** POSTs one JSON-RPC message; a request's answer comes back as JSON or in an SSE stream. */
async function post(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
  message: Record<string, unknown>,
): Promise<{ message: JsonRpcResponse; sessionId: string | undefined }> {
  const response = await send(agent, url, "POST", headers, timeoutMs, JSON.stringify(message));
  if (!("id" in message)) return { message: {}, sessionId: response.sessionId };
  const answer = response.eventStream
    ? messageInStream(response.body, message.id)
    : (JSON.parse(response.body) as JsonRpcResponse);
  if (answer === undefined) throw new ServerUnavailableError("the server's stream held no answer");
  return { message: answer, sessionId: response.sessionId };
}

function messageInStream(body: string, id: unknown): JsonRpcResponse | undefined {
  let found: JsonRpcResponse | undefined;
  const parser = createParser({
    onEvent: (event) => {
      const value = JSON.parse(event.data) as JsonRpcResponse;
      if (value.id === id) found = value;
    },
  });
  parser.feed(body);
  parser.feed("\n\n");
  return found;
}

interface RawResponse {
  readonly body: string;
  readonly eventStream: boolean;
  readonly sessionId: string | undefined;
}

function send(
  agent: Agent,
  url: string,
  method: "POST" | "DELETE",
  headers: Record<string, string>,
  timeoutMs: number,
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers, timeout: timeoutMs }, (response) => {
      const status = response.statusCode ?? 0;
      const parts: Buffer[] = [];
      let size = 0;
      response.on("data", (part: Buffer) => {
        size += part.length;
        if (size > MAX_RESPONSE_BYTES) {
          req.destroy(new ServerUnavailableError("the server's answer is too large"));
          return;
        }
        parts.push(part);
      });
      response.on("error", reject);
      response.on("end", () => {
        const text = Buffer.concat(parts).toString("utf8");
        if (status < 200 || status >= 300) {
          reject(new ServerUnavailableError(`the server answered HTTP ${status}`));
          return;
        }
        const session = response.headers["mcp-session-id"];
        resolve({
          body: text,
          eventStream: (response.headers["content-type"] ?? "").startsWith("text/event-stream"),
          sessionId: typeof session === "string" ? session : undefined,
        });
      });
    });
    req.on("timeout", () =>
      req.destroy(new ServerUnavailableError(`the server took more than ${timeoutMs} ms`)),
    );
    req.on("error", (error) =>
      reject(
        error instanceof ServerUnavailableError
          ? error
          : new ServerUnavailableError(`the server cannot be reached: ${error.message}`),
      ),
    );
    req.end(body);
  });
}
