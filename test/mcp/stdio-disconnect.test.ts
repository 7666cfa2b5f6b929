import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LlmServer } from "../helpers/llm-server.js";
import { CLI } from "../helpers/run-cli.js";
import { gitRepo } from "../helpers/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));

/** A client gone is noticed and the process ends within this, on a busy machine. */
const EXITS_WITHIN_MS = 10_000;

let llm: LlmServer;
beforeAll(async () => {
  llm = await LlmServer.start();
});
afterAll(async () => {
  await llm.close();
});

function project(): string {
  const root = gitRepo({ "README.md": "# Demo\n\nRetries.\n" });
  cpSync(FIXTURES, join(root, "src"), { recursive: true });
  return root;
}

interface Served {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[];
  stderr: string;
  readonly exited: Promise<{ code: number | null; at: number }>;
}

/** `ctx serve` over stdio in a subprocess, spoken to line by line as an MCP client would. */
function serve(root: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Served {
  const child = spawn(process.execPath, [CLI, "serve", ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: root,
      XDG_CONFIG_HOME: root,
      ANTHROPIC_API_KEY: "",
      CLAUDE_CODE_OAUTH_TOKEN: "",
      OPENAI_API_KEY: "",
      OPENAI_BASE_URL: "",
      ...env,
    },
  });
  // The test closes its ends of the pipes on purpose: writes after that fail here.
  child.stdin.on("error", () => undefined);
  const served: Served = {
    child,
    lines: [],
    stderr: "",
    exited: new Promise((resolve) => {
      child.once("exit", (code) => resolve({ code, at: Date.now() }));
    }),
  };
  let partial = "";
  child.stdout.on("data", (part: Buffer) => {
    const text = partial + part.toString("utf8");
    const lines = text.split("\n");
    partial = lines.pop() ?? "";
    served.lines.push(...lines);
  });
  child.stderr.on("data", (part: Buffer) => {
    served.stderr += part.toString("utf8");
  });
  return served;
}

function send(served: Served, message: object): void {
  served.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
}

async function until(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function initialize(served: Served): Promise<void> {
  send(served, {
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "stdio-test", version: "1" },
    },
  });
  await until(() => served.lines.some((line) => line.includes('"id":1')), "the initialize answer");
  send(served, { method: "notifications/initialized" });
}

/** Exits, or the time it was given ran out (null). */
async function exitWithin(served: Served, ms: number): Promise<{ code: number | null } | null> {
  const timer = new Promise<null>((resolve) => setTimeout(() => resolve(null), ms));
  const exited = await Promise.race([served.exited, timer]);
  if (exited === null) served.child.kill("SIGKILL");
  return exited;
}

describe("ctx serve over stdio when its client goes", () => {
  it("exits within seconds when stdin closes with a request in flight, stopping the refresh", async () => {
    const root = project();
    // Every model call hangs: the refresh (started with the server, joined by refresh_index) does not end by itself.
    llm.outage = "hang";
    const served = serve(root, [], {
      OPENAI_API_KEY: "test-key",
      OPENAI_BASE_URL: `${llm.url}/v1`,
    });
    try {
      await initialize(served);
      const calls = llm.modelRequests.length;
      send(served, {
        id: 2,
        method: "tools/call",
        params: { name: "refresh_index", arguments: {} },
      });
      await until(() => llm.modelRequests.length > calls, "the refresh to call the model");
      served.child.stdin.end();
      const closedAt = Date.now();
      const exited = await exitWithin(served, EXITS_WITHIN_MS);
      expect(exited, `still running ${EXITS_WITHIN_MS} ms after stdin closed`).not.toBeNull();
      expect(exited?.code).toBe(0);
      expect((await served.exited).at - closedAt).toBeLessThan(EXITS_WITHIN_MS);
      expect(served.lines.some((line) => line.includes('"id":2'))).toBe(false);
    } finally {
      llm.outage = null;
      served.child.kill("SIGKILL");
    }
  }, 60_000);

  it("exits without an error or a stack when the client stops reading stdout", async () => {
    const served = serve(project(), ["--no-refresh", "--no-watch"]);
    await initialize(served);
    served.child.stdout.destroy();
    for (let id = 10; id < 16; id++) {
      send(served, {
        id,
        method: "tools/call",
        params: {
          name: "get_context",
          arguments: { task: "RetryRunner run", budget_tokens: 2000 },
        },
      });
    }
    const exited = await exitWithin(served, EXITS_WITHIN_MS);
    expect(exited, "still running with stdout broken").not.toBeNull();
    expect(exited?.code).toBe(0);
    expect(served.stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
  }, 60_000);

  it("answers a message over the size limit with one clear error and exits non-zero", async () => {
    const served = serve(project(), ["--no-refresh", "--no-watch"]);
    await initialize(served);
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "search", arguments: { query: "x".repeat(3 * 1024 * 1024) } },
    });
    served.child.stdin.write(`${huge}\n`);
    const exited = await exitWithin(served, EXITS_WITHIN_MS);
    expect(exited, "still running after an over-long message").not.toBeNull();
    expect(exited?.code).toBe(1);
    expect(served.stderr.trim().split("\n")).toEqual([
      "ctx: the MCP client sent a message over 1048576 bytes, more than ctx reads; the server stops (the client must send smaller requests)",
    ]);
    const answer = JSON.parse(served.lines.at(-1) ?? "{}") as {
      id: unknown;
      error?: { code: number; message: string };
    };
    expect(answer.id).toBeNull();
    expect(answer.error?.code).toBe(-32600);
    expect(answer.error?.message).toMatch(/over 1048576 bytes/);
  }, 60_000);
});
