import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { createMcpServer } from "../../src/mcp/create-server.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));
let engine: ContextEngine;
let client: Client;
let root: string;
let outside: string;

beforeAll(async () => {
  root = tempDir("ctx-mcp-");
  cpSync(FIXTURES, join(root, "src"), { recursive: true });
  writeFiles(root, {
    "README.md": "# Retry demo\n\nHow retries work.\n",
    "AGENTS.md": "Run npm test.\n",
  });
  outside = tempDir("ctx-mcp-outside-");
  writeFileSync(join(outside, "secret.txt"), "outside secret\n");
  symlinkSync(join(outside, "secret.txt"), join(root, "src", "escape.txt"));
  mkdirSync(join(root, "docs"));
  engine = await ContextEngine.open({ start: root, cwd: root, env: { XDG_CONFIG_HOME: root } });
  await engine.index([root]);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = await createMcpServer(engine);
  await server.connect(serverSide);
  client = new Client({ name: "test", version: "1" });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
  await engine.close();
});

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult, index = 0): string {
  const part = result.content[index];
  return part?.type === "text" ? part.text : "";
}

describe("MCP tools", () => {
  it("lists the tools with input schemas and descriptions", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "close_plan",
      "create_plan",
      "explain",
      "find_references",
      "find_symbol",
      "get_context",
      "index_status",
      "list_strategies",
      "read_fragment",
      "record_decision",
      "refresh_index",
      "repo_map",
      "search",
      "show_plan",
    ]);
    const getContext = tools.find((tool) => tool.name === "get_context");
    expect(getContext?.inputSchema.required).toEqual(["task"]);
    expect(getContext?.description).toMatch(/token budget/);
  });

  it("records plans and decisions that get_context brings back with plan_id", async () => {
    const parent = JSON.parse(textOf(await call("create_plan", { title: "Retry rework" }))) as {
      id: string;
    };
    await call("record_decision", {
      plan_id: parent.id,
      what: "Cap retries at five",
      why: "Bounded latency",
      alternatives: ["unbounded with jitter"],
    });
    const child = JSON.parse(
      textOf(await call("create_plan", { title: "Backoff tuning", parent_id: parent.id })),
    ) as { id: string; parentId: string };
    expect(child.parentId).toBe(parent.id);
    await call("record_decision", { plan_id: child.id, what: "Double the delay", why: "Standard" });
    const context = textOf(
      await call("get_context", { task: "RetryRunner", budget_tokens: 3000, plan_id: child.id }),
    );
    expect(context.indexOf("Double the delay")).toBeGreaterThan(0);
    expect(context.indexOf("Cap retries at five")).toBeGreaterThan(
      context.indexOf("Double the delay"),
    );
    const closed = JSON.parse(
      textOf(await call("close_plan", { plan_id: child.id, outcome: "Merged" })),
    ) as { status: string };
    expect(closed.status).toBe("closed");
    const shown = JSON.parse(textOf(await call("show_plan", { plan_id: parent.id }))) as {
      decisions: { what: string }[];
    };
    expect(shown.decisions.map((d) => d.what)).toEqual(["Cap retries at five"]);
    const refused = await call("record_decision", { plan_id: child.id, what: "x", why: "y" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/is closed/);
  });

  it("get_context returns the context within the budget and a provenance summary", async () => {
    const result = await call("get_context", {
      task: "RetryRunner run attempts",
      budget_tokens: 700,
    });
    expect(result.isError).toBeFalsy();
    const context = textOf(result, 0);
    expect(o200kCounter.count(context)).toBeLessThanOrEqual(700);
    expect(context).toMatch(/## src\/sample\.ts:\d+-\d+/);
    expect(textOf(result, 1)).toMatch(
      /^request \w+: \d+ fragments, \d+ of 700 tokens[^\n]*\n- simple-keyword: confidence/,
    );
  });

  it("explain describes the last request, or a given one", async () => {
    const first = await call("get_context", { task: "cache get", budget_tokens: 500 });
    const requestId = /^request (\w+):/.exec(textOf(first, 1))?.[1];
    await call("get_context", { task: "retry policy", budget_tokens: 500 });
    const last = JSON.parse(textOf(await call("explain"))) as { task: string };
    expect(last.task).toBe("retry policy");
    const given = JSON.parse(textOf(await call("explain", { request_id: requestId }))) as {
      task: string;
      strategies: { name: string }[];
      fragments: { strategy: string }[];
    };
    expect(given.task).toBe("cache get");
    expect(given.strategies[0]?.name).toBe("simple-keyword");
    const strategies = new Set(given.fragments.map((fragment) => fragment.strategy));
    expect(
      [...strategies].every((name) =>
        /^(simple-keyword|breadth-depth-navigator|hot-files)$/.test(name),
      ),
    ).toBe(true);
  });

  it("search returns ranked fragments with path, lines, score and snippet", async () => {
    const hits = JSON.parse(textOf(await call("search", { query: "RetryPolicy", limit: 3 }))) as {
      id: string;
      path: string;
      score: number;
    }[];
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]?.path).toBe("src/sample.py");
    const fragment = await call("read_fragment", { id: hits[0]?.id });
    expect(textOf(fragment)).toMatch(/^src\/sample\.py:\d+-\d+\n/);
  });

  it("read_fragment reads a line range inside the project", async () => {
    const result = await call("read_fragment", {
      path: "src/sample.go",
      start_line: 1,
      end_line: 3,
    });
    expect(textOf(result)).toBe('src/sample.go:1-3\npackage retry\n\nimport "time"');
  });

  it.each([
    ["traversal", { path: "../../etc/passwd" }, /outside the project's roots/],
    ["absolute", { path: "/etc/passwd" }, /outside the project's roots/],
    ["symbolic link out", { path: "src/escape.txt" }, /symbolic link on it leads outside/],
    [
      "percent-encoded traversal",
      { path: "src/%2e%2e/%2e%2e/%2e%2e/etc/passwd" },
      /outside the project's roots/,
    ],
    ["NUL byte", { path: "src/sample.go\u0000.txt" }, /NUL byte/],
    [
      "traversal in a fragment id",
      { id: "01AAAAAAAAAAAAAAAAAAAAAAAA:../../etc/passwd#L1-L2" },
      /belongs to no root|outside/,
    ],
    ["a folder", { path: "docs" }, /is not a file/],
  ])("read_fragment refuses %s", async (_name, args, message) => {
    const result = await call("read_fragment", args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    expect(textOf(result)).not.toContain("outside secret");
  });

  it("turns bad input into isError results an agent can act on", async () => {
    const unknown = await call("get_context", { task: "x", strategies: ["nope"] });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(
      /requested strategies: enabled strategy "nope" is not registered/,
    );
    const tooBig = await call("get_context", { task: "x", budget_tokens: 10_000_000 });
    expect(tooBig.isError).toBe(true);
    const tooSmall = await call("get_context", { task: "x", budget_tokens: 3 });
    expect(textOf(tooSmall)).toMatch(/budget 3 is too small/);
  });

  it("index_status reports files, skipped, staleness and the context generator", async () => {
    writeFileSync(join(root, "src", "new.ts"), "export const fresh = 1;\n");
    const status = JSON.parse(textOf(await call("index_status"))) as {
      store: { documents: number };
      staleness: { added: number; changed: number; removed: number };
      resources: { skipped: Record<string, number> }[];
      contextGenerator: { name: string };
    };
    expect(status.store.documents).toBeGreaterThan(10);
    expect(status.staleness).toEqual({ added: 1, changed: 0, removed: 0 });
    expect(status.resources[0]?.skipped["outside-root"]).toBe(1);
    expect(status.contextGenerator.name).toBe("structural");
  });

  it("refresh_index re-indexes with progress notifications, and a second call joins the first", async () => {
    writeFileSync(join(root, "src", "another.ts"), "export const another = 2;\n");
    const progress: number[] = [];
    const [first, second] = await Promise.all([
      client.callTool({ name: "refresh_index", arguments: {} }, undefined, {
        onprogress: (event) => progress.push(event.progress),
      }),
      client.callTool({ name: "refresh_index", arguments: {} }),
    ]);
    const a = JSON.parse(textOf(first as CallToolResult)) as { added: number };
    const b = JSON.parse(textOf(second as CallToolResult)) as { added: number };
    expect(a.added).toBeGreaterThanOrEqual(1);
    expect(b).toEqual(a);
    expect(progress.length).toBeGreaterThan(0);
  });

  it("lists strategies and serves README and AGENTS.md as resources", async () => {
    const strategies = JSON.parse(textOf(await call("list_strategies"))) as {
      strategies: { name: string; breaker: string }[];
    };
    expect(strategies.strategies).toContainEqual(
      expect.objectContaining({ name: "simple-keyword", breaker: "closed" }),
    );
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.name).sort()).toEqual(["AGENTS.md", "README.md"]);
    const readme = resources.find((resource) => resource.name === "README.md");
    const read = await client.readResource({ uri: readme?.uri ?? "" });
    expect(read.contents[0]).toMatchObject({ text: "# Retry demo\n\nHow retries work.\n" });
  });
});
