import { execFile, execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitRepo, tempDir } from "../helpers/temp-dir.js";

const run = promisify(execFile);
const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
/** The Claude Code binary the agent SDK ships (a devDependency). */
const CLAUDE = fileURLToPath(
  new URL("../../node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude", import.meta.url),
);

const PROMPT = "How is the wombat ledger balance settled?";

/**
 * A Messages API server that scripts one agent turn: the first request that
 * carries the prompt is answered with a call of ctx's get_context tool, the
 * request that brings the tool's result back with a short answer, anything
 * else (Claude Code's side requests) with "ok". Every request is recorded.
 */
class ScriptedModel {
  readonly bodies: string[] = [];
  private called = false;
  private readonly server: Server;

  constructor() {
    this.server = createServer((request, response) => void this.handle(request, response));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const body = Buffer.concat(parts).toString("utf8");
    if (!request.url?.startsWith("/v1/messages") || request.method !== "POST") {
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
      return;
    }
    this.bodies.push(body);
    const json = JSON.parse(body) as { stream?: boolean; model?: string };
    if (request.url.includes("count_tokens")) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ input_tokens: 100 }));
      return;
    }
    const block =
      !this.called && body.includes(PROMPT) && !body.includes("tool_result")
        ? {
            type: "tool_use",
            id: "toolu_ctx1",
            name: "mcp__ctx__get_context",
            input: { task: "wombat ledger balance", budget_tokens: 800 },
          }
        : {
            type: "text",
            text: body.includes("tool_result") ? "Settled by settleWombatLedger." : "ok",
          };
    if (block.type === "tool_use") this.called = true;
    this.answer(response, block, String(json.model ?? "claude"), json.stream === true);
  }

  private answer(
    response: ServerResponse,
    block: Record<string, unknown>,
    model: string,
    stream: boolean,
  ): void {
    const usage = { input_tokens: 100, output_tokens: 20 };
    const stopReason = block.type === "tool_use" ? "tool_use" : "end_turn";
    const message = { id: "msg_1", type: "message", role: "assistant", model, usage };
    if (!stream) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          ...message,
          content: [block],
          stop_reason: stopReason,
          stop_sequence: null,
        }),
      );
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream" });
    const event = (type: string, data: Record<string, unknown>) =>
      response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    event("message_start", {
      message: { ...message, content: [], stop_reason: null, stop_sequence: null },
    });
    if (block.type === "tool_use") {
      event("content_block_start", { index: 0, content_block: { ...block, input: {} } });
      event("content_block_delta", {
        index: 0,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    } else {
      event("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
      event("content_block_delta", { index: 0, delta: { type: "text_delta", text: block.text } });
    }
    event("content_block_stop", { index: 0 });
    event("message_delta", {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 20 },
    });
    event("message_stop", {});
    response.end();
  }
}

const haveClaude = existsSync(CLAUDE);
// It comes with `npm ci` (the agent SDK is a devDependency): in CI its absence is a failure.
if (process.env.CI && !haveClaude) throw new Error(`${CLAUDE} is missing: run npm ci`);

describe.skipIf(!haveClaude)("ctx init claude-code --hook, then the real Claude Code", () => {
  let model: ScriptedModel;
  let baseUrl: string;
  beforeAll(async () => {
    model = new ScriptedModel();
    baseUrl = await model.start();
  });
  afterAll(async () => {
    await model?.close();
  });

  it("the hook's context reaches the model's first request and ctx's MCP tools answer", async () => {
    const project = gitRepo({
      "README.md": "# Accounts\n",
      "src/ledger.ts":
        "/** Settles the wombat ledger: the balance after every posting. */\nexport function settleWombatLedger(postings: number[]): number {\n  return postings.reduce((balance, amount) => balance + amount, 0);\n}\n",
      "src/other.ts": "export function unrelatedHelper(): string {\n  return 'x';\n}\n",
    });
    const env = { PATH: process.env.PATH ?? "", HOME: project, XDG_CONFIG_HOME: project };
    const init = execFileSync(process.execPath, [CLI, "init", "claude-code", "--hook"], {
      cwd: project,
      env,
      encoding: "utf8",
    });
    expect(init).toContain("created .mcp.json");
    expect(init).toContain(join(".claude", "settings.local.json"));
    const settings = JSON.parse(readFileSync(join(project, ".claude/settings.local.json"), "utf8"));
    expect(settings.hooks.UserPromptSubmit[0].hooks[0].command).toContain("hook claude-code");
    execFileSync(process.execPath, [CLI, "index"], { cwd: project, env, stdio: "ignore" });

    const home = tempDir("ctx-claude-home-");
    const { stdout } = await run(
      CLAUDE,
      ["-p", PROMPT, "--allowedTools", "mcp__ctx__get_context", "--output-format", "text"],
      {
        cwd: project,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: home,
          ANTHROPIC_BASE_URL: baseUrl,
          ANTHROPIC_API_KEY: "dummy",
          DISABLE_AUTOUPDATER: "1",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          // Wait for ctx serve to connect before the first request, as a loaded machine may
          // otherwise send it while the server is still starting.
          MCP_CONNECTION_NONBLOCKING: "false",
          // That wait gives up after 5 s by default, which ctx serve's start can pass under load.
          MCP_CONNECT_TIMEOUT_MS: "60000",
        },
        timeout: 90_000,
      },
    );
    expect(stdout).toContain("Settled by settleWombatLedger.");

    const first = model.bodies.find((body) => body.includes(PROMPT));
    // The hook ran before the model saw the prompt: ctx's context is in that very request.
    expect(first).toContain("# Context for: How is the wombat ledger balance settled?");
    expect(first).toContain("return postings.reduce((balance, amount) => balance + amount, 0);");
    // ctx serve, started by Claude Code from .mcp.json, had its tools listed (as deferred tools).
    for (const tool of ["get_context", "search", "read_fragment", "explain", "find_symbol"]) {
      expect(first).toContain(`mcp__ctx__${tool}`);
    }
    // The tool call went to ctx serve over MCP and its answer came back to the model.
    const withResult = model.bodies.find(
      (body) => body.includes("toolu_ctx1") && body.includes("tool_result"),
    );
    expect(withResult).toContain("settleWombatLedger");
    expect(withResult).toContain("src/ledger.ts");
  }, 120_000);
});
