import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { indexedMcpClient } from "../helpers/mcp-client.js";
import { runCli } from "../helpers/run-cli.js";
import { SERVICE } from "../helpers/service-fixture.js";
import { gitRepo } from "../helpers/temp-dir.js";

interface JsonQuery {
  fragments: { path: string; strategy: string; detailDepth: string }[];
  tokensUsed: number;
}

function query(root: string, ...args: string[]): JsonQuery {
  const result = runCli(["query", ...args, "--format", "json"], root);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as JsonQuery;
}

const TASK = "requests with a trailing slash fail in handleRequest";

describe("breadth-depth-navigator through ctx query", () => {
  it("brings the code a hit calls, which keyword search alone does not find", () => {
    const root = gitRepo(SERVICE);
    const keyword = query(
      root,
      TASK,
      "--strategy",
      "simple-keyword",
      "--budget",
      "2000",
      "--explain",
    );
    const paths = (result: JsonQuery) => [...new Set(result.fragments.map((f) => f.path))];
    expect(paths(keyword)).not.toContain("src/util/paths.ts");
    const navigated = query(root, TASK, "--budget", "2000", "--explain");
    expect(paths(navigated)).toEqual(
      expect.arrayContaining(["src/server.ts", "src/http/router.ts", "src/util/paths.ts"]),
    );
    expect(navigated.fragments.some((f) => f.strategy === "breadth-depth-navigator")).toBe(true);
    expect(paths(navigated)).not.toContain("src/colors.ts");
  }, 60_000);

  it("starts from --focus, and shows what does not fit whole at a lower depth", () => {
    const root = gitRepo(SERVICE);
    const focused = query(root, "change how a color is computed", "--focus", "src/colors.ts");
    expect(focused.fragments[0]?.path).toBe("src/colors.ts");
    // A focus that names nothing is said, not silently dropped; the answer still comes.
    const typo = runCli(
      ["query", "change how a color is computed", "--focus", "src/colours.ts", "--focus", "darken"],
      root,
    );
    expect(typo.code, typo.stderr).toBe(0);
    expect(typo.stderr).toBe(
      "ctx: --focus src/colours.ts names no file, folder or definition in the index; it was left out\n",
    );
    expect(typo.stdout).toContain("src/colors.ts");
    const tight = query(root, TASK, "--budget", "120", "--strategy", "breadth-depth-navigator");
    expect(tight.tokensUsed).toBeLessThanOrEqual(120);
    expect(tight.fragments.length).toBeGreaterThan(0);
  }, 60_000);
});

describe("ctx map", () => {
  it("prints the map within the budget, as text or JSON, and warns about an unknown focus", () => {
    const root = gitRepo(SERVICE);
    const text = runCli(["map", "--budget", "60"], root);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.startsWith("src/util/paths.ts:\n│function splitPath")).toBe(true);
    const json = runCli(["map", "--budget", "80", "--json", "--focus", "nowhere.ts"], root);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toContain("--focus nowhere.ts names no file, folder or definition");
    const parsed = JSON.parse(json.stdout) as {
      budget: number;
      tokens: number;
      map: string;
      files: { path: string; definitions: { name: string; kind: string; startLine: number }[] }[];
    };
    expect(parsed.budget).toBe(80);
    expect(parsed.tokens).toBeLessThanOrEqual(80);
    expect(parsed.map.length).toBeGreaterThan(0);
    expect(parsed.files[0]?.definitions[0]).toMatchObject({
      name: "splitPath",
      kind: "function",
      startLine: 1,
    });
    const tiny = runCli(["map", "--budget", "1"], root);
    expect(tiny.code).toBe(0);
    expect(tiny.stdout).toContain("too small");
    expect(runCli(["map", "--budget", "0"], root).code).toBe(2);
  }, 60_000);
});

describe("MCP repo_map and get_context's focus", () => {
  it("answer through the SDK client", async () => {
    const root = gitRepo(SERVICE);
    const { engine, client, close } = await indexedMcpClient(root);
    try {
      const texts = async (name: string, args: Record<string, unknown>) => {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        expect(result.isError ?? false).toBe(false);
        return result.content.map((part) => (part.type === "text" ? part.text : ""));
      };
      const [map, summary] = await texts("repo_map", { budget_tokens: 50, focus: ["darken"] });
      expect(map).toContain("src/colors.ts:");
      expect(engine.counter.count(map ?? "")).toBeLessThanOrEqual(50);
      expect(summary).toMatch(/of 50 tokens/);
      const [context, provenance] = await texts("get_context", {
        task: "what changes",
        focus: ["src/util/paths.ts", "nowhere.ts"],
        budget_tokens: 1500,
      });
      expect(context).toContain("src/util/paths.ts");
      expect(provenance).toContain(
        "focus left out (no such file, folder or definition): nowhere.ts",
      );
    } finally {
      await close();
    }
  });
});
