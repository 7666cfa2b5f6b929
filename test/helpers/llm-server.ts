import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** How the server answers the next model request. */
export type Fault =
  | "ok"
  | "rate-limit"
  | "server-error"
  | "hang"
  | "wrong-length"
  | "fenced"
  | "prose"
  | "malformed-json";

export interface RecordedRequest {
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
  readonly json: Record<string, unknown> | null;
  readonly at: number;
}

/**
 * A real HTTP server on 127.0.0.1 that speaks the Anthropic Messages API and
 * the OpenAI chat completions API (JSON and server-sent events), for testing
 * the LLM adapters through their real SDKs. Answers are derived from the chunks
 * in the prompt; faults are injected in order from a plan.
 */
export class LlmServer {
  readonly requests: RecordedRequest[] = [];
  /** Most model requests in flight at the same time. */
  maxConcurrent = 0;
  /** Seconds sent in `retry-after` with a 429. */
  retryAfterSeconds = 1;
  /** Latency added to every answer, so concurrency can be observed. */
  delayMs = 0;
  /** When set, every model request gets this fault (an outage), whatever the plan. */
  outage: Fault | null = null;
  /** Size of the vectors /v1/embeddings returns. */
  embeddingDimensions = 64;
  private inFlight = 0;
  private readonly faults: Fault[] = [];
  private readonly server: Server;
  private readonly hung: ServerResponse[] = [];

  private constructor() {
    this.server = createServer((request, response) => void this.handle(request, response));
  }

  static async start(): Promise<LlmServer> {
    const server = new LlmServer();
    await new Promise<void>((resolve) => server.server.listen(0, "127.0.0.1", resolve));
    return server;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Model requests only (not the agent SDK's health checks). */
  get modelRequests(): RecordedRequest[] {
    return this.requests.filter((request) => request.path.startsWith("/v1/"));
  }

  /** Faults for the next model requests, in order; "ok" once they run out. */
  plan(...faults: Fault[]): void {
    this.faults.push(...faults);
  }

  /** Everything any client sent, for checking what left the machine. */
  everythingSent(): string {
    return this.requests.map((request) => request.body).join("\n");
  }

  async close(): Promise<void> {
    for (const response of this.hung) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body = "";
    for await (const chunk of request) body += chunk;
    const path = request.url ?? "/";
    let json: Record<string, unknown> | null = null;
    try {
      json = body ? (JSON.parse(body) as Record<string, unknown>) : null;
    } catch {
      json = null;
    }
    this.requests.push({ path, headers: request.headers, body, json, at: Date.now() });
    const isModelCall = path.startsWith("/v1/") || path.startsWith("/v2/") || path === "/rerank";
    if (!isModelCall) {
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
      return;
    }
    const authorized = request.headers["x-api-key"] || request.headers.authorization;
    if (!authorized) {
      response
        .writeHead(401, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: "no key" } }));
      return;
    }
    this.inFlight++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.inFlight);
    try {
      if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      const fault = this.outage ?? this.faults.shift() ?? "ok";
      if (fault === "hang") {
        this.hung.push(response);
        await new Promise((resolve) => response.on("close", resolve));
        return;
      }
      if (fault === "rate-limit" || fault === "server-error") {
        const status = fault === "rate-limit" ? 429 : 500;
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (status === 429) headers["retry-after"] = String(this.retryAfterSeconds);
        response
          .writeHead(status, headers)
          .end(
            JSON.stringify({ type: "error", error: { type: fault, message: `injected ${fault}` } }),
          );
        return;
      }
      if (path.endsWith("/embeddings")) {
        this.embeddings(response, json, fault);
        return;
      }
      if (path.endsWith("/rerank")) {
        this.rerank(response, json);
        return;
      }
      const text = answerFor(body, fault);
      const stream = json?.stream === true;
      if (path.startsWith("/v1/messages"))
        this.anthropic(response, text, String(json?.model ?? ""), stream);
      else this.openai(response, text, String(json?.model ?? ""), stream);
    } finally {
      this.inFlight--;
    }
  }

  /** OpenAI embeddings: hashed bag-of-words vectors, so texts sharing words are close. */
  private embeddings(
    response: ServerResponse,
    json: Record<string, unknown> | null,
    fault: Fault,
  ): void {
    const input = json?.input;
    const texts = Array.isArray(input) ? (input as string[]) : [String(input ?? "")];
    const vectors = texts.map((text) => wordVector(text, this.embeddingDimensions));
    const data = (fault === "wrong-length" ? vectors.slice(1) : vectors).map(
      (embedding, index) => ({ object: "embedding", index, embedding }),
    );
    response.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        object: "list",
        data,
        model: String(json?.model ?? ""),
        usage: { prompt_tokens: 10, total_tokens: 10 },
      }),
    );
  }

  /** Cohere / Jina / vLLM rerank shape (TEI when `texts` is sent): scores by shared words. */
  private rerank(response: ServerResponse, json: Record<string, unknown> | null): void {
    const query = String(json?.query ?? "");
    const documents = (json?.documents ?? json?.texts ?? []) as string[];
    const scored = documents.map((document, index) => ({
      index,
      relevance_score: overlap(query, document),
    }));
    const body = json?.texts
      ? scored.map(({ index, relevance_score }) => ({ index, score: relevance_score }))
      : { results: scored };
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  }

  private anthropic(response: ServerResponse, text: string, model: string, stream: boolean): void {
    const usage = {
      input_tokens: 100,
      output_tokens: 20,
      cache_read_input_tokens: 80,
      cache_creation_input_tokens: 10,
    };
    if (!stream) {
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: "msg_test",
          type: "message",
          role: "assistant",
          model,
          content: [{ type: "text", text }],
          stop_reason: "end_turn",
          stop_sequence: null,
          usage,
        }),
      );
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream" });
    const event = (type: string, data: Record<string, unknown>) =>
      response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    event("message_start", {
      message: {
        id: "msg_test",
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    });
    event("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    event("content_block_delta", { index: 0, delta: { type: "text_delta", text } });
    event("content_block_stop", { index: 0 });
    event("message_delta", {
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: 20 },
    });
    event("message_stop", {});
    response.end();
  }

  private openai(response: ServerResponse, text: string, model: string, stream: boolean): void {
    const usage = {
      prompt_tokens: 100,
      completion_tokens: 20,
      total_tokens: 120,
      prompt_tokens_details: { cached_tokens: 64 },
    };
    if (!stream) {
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: "chatcmpl-test",
          object: "chat.completion",
          created: 0,
          model,
          choices: [
            { index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" },
          ],
          usage,
        }),
      );
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream" });
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      response.write(
        `data: ${JSON.stringify({ id: "chatcmpl-test", object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    chunk({ role: "assistant", content: text }, null);
    chunk({}, "stop");
    response.end("data: [DONE]\n\n");
  }
}

/** Contexts for the chunks in the prompt, shaped by the fault. */
function answerFor(body: string, fault: Fault): string {
  const prompt = promptText(body);
  const numbered = [...prompt.matchAll(/<chunk index="(\d+)">\n([\s\S]*?)\n<\/chunk>/g)];
  if (numbered.length === 0) {
    const single = /<chunk>\n([\s\S]*?)\n<\/chunk>/.exec(prompt);
    return fault === "prose" ? "" : `Context of a chunk about ${firstWord(single?.[1] ?? "")}.`;
  }
  const contexts = numbered.map(
    (match) => `Context of chunk ${match[1]} about ${firstWord(match[2] ?? "")}.`,
  );
  switch (fault) {
    case "wrong-length":
      return JSON.stringify(contexts.slice(1));
    case "fenced":
      return `Here you go:\n\`\`\`json\n${JSON.stringify(contexts)}\n\`\`\``;
    case "prose":
      return "I am sorry, I cannot format that as JSON, but the chunks look fine.";
    case "malformed-json":
      return `["${contexts[0]}", "unterminated`;
    default:
      return JSON.stringify(contexts);
  }
}

/** The text of every message and system block in a request body, whatever the API. */
function promptText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { messages?: unknown[]; system?: unknown };
    return JSON.stringify(parsed).replace(/\\n/g, "\n").replace(/\\"/g, '"');
  } catch {
    return body;
  }
}

function firstWord(text: string): string {
  return /[A-Za-z_][A-Za-z0-9_]{2,}/.exec(text)?.[0] ?? "nothing";
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z]{3,}/g) ?? [];
}

/** A unit vector with one hashed bucket per word. */
function wordVector(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of words(text)) {
    let hash = 0;
    for (let i = 0; i < word.length; i++) hash = (hash * 31 + word.charCodeAt(i)) >>> 0;
    vector[hash % dimensions] = (vector[hash % dimensions] ?? 0) + 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

/** Share of the query's words that occur in the document. */
function overlap(query: string, document: string): number {
  const wanted = new Set(words(query));
  if (wanted.size === 0) return 0;
  const present = new Set(words(document));
  return [...wanted].filter((word) => present.has(word)).length / wanted.size;
}
