import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { serveHttp } from "../../src/mcp/serve-http.js";
import { git, tempDir } from "../helpers/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));
const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
/** Stands in for /etc/passwd: a file of the user's outside the project. */
const MARKER = "QUOKKA-PASSWD-MARKER";
const LINKED_OUT = ["README.md", "CONTRIBUTING.md", "AGENTS.md", "CLAUDE.md", ".cursorrules"];

/**
 * A project whose pinned files are links to a file outside it, and whose
 * README.rst is a link to a file inside it; in git mode the links are committed.
 */
function hostileProject(mode: "git" | "folder"): { root: string; outsideFile: string } {
  const outsideDir = tempDir("ctx-outside-");
  const outsideFile = join(outsideDir, "passwd");
  writeFileSync(outsideFile, `root:x:0:0:${MARKER}:/root:/bin/bash\nquokka:x:1000:1000::/home\n`);
  const root = tempDir("ctx-pinned-");
  cpSync(FIXTURES, join(root, "src"), { recursive: true });
  mkdirSync(join(root, "docs"));
  writeFileSync(join(root, "docs", "guide.md"), "# Guide\n\nThe inside guide about quokka.\n");
  for (const name of LINKED_OUT) symlinkSync(outsideFile, join(root, name));
  symlinkSync(join("docs", "guide.md"), join(root, "README.rst"));
  if (mode === "git") {
    git(root, "init", "--quiet", "--initial-branch=main");
    git(root, "add", "--all");
    git(root, "commit", "--quiet", "--message", "links");
  }
  return { root, outsideFile };
}

/** Everything an agent can get: every resource listed and read, and every tool that returns files. */
async function everythingServed(client: Client, outsideFile: string): Promise<string> {
  const seen: string[] = [];
  const { resources } = await client.listResources();
  seen.push(JSON.stringify(resources));
  for (const resource of resources) {
    seen.push(JSON.stringify(await client.readResource({ uri: resource.uri })));
  }
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    seen.push(JSON.stringify(result));
    return result;
  };
  await call("refresh_index", {});
  await call("get_context", { task: "quokka passwd root bash README agents", budget_tokens: 4000 });
  await call("get_context", {
    task: "contributing guide",
    budget_tokens: 4000,
    format: "xml",
    paths: ["README.md"],
  });
  await call("search", { query: "quokka passwd root", limit: 20 });
  await call("find_symbol", { name: "quokka" });
  await call("repo_map", { budget_tokens: 4000, focus: LINKED_OUT });
  await call("index_status", {});
  await call("explain", { html: true });
  for (const name of LINKED_OUT) {
    const read = await call("read_fragment", { path: name });
    expect(read.isError).toBe(true);
    await call("read_fragment", { id: `${name}#L1-L2` });
  }
  await call("read_fragment", { path: outsideFile });
  return seen.join("\n");
}

/** A pinned file swapped for a link out after the server listed it is refused when read. */
async function swappedAfterListing(client: Client, root: string, outsideFile: string) {
  const { resources } = await client.listResources();
  const inside = resources.find((resource) => resource.name === "README.rst");
  expect(inside).toBeDefined();
  rmSync(join(root, "README.rst"));
  symlinkSync(outsideFile, join(root, "README.rst"));
  const read = client.readResource({ uri: inside?.uri ?? "" });
  await expect(read).rejects.toThrow(/refused "README\.rst": it leads outside/);
  await expect(read).rejects.not.toThrow(MARKER);
}

async function expectConfined(client: Client, root: string, outsideFile: string) {
  const { resources } = await client.listResources();
  // Only the link that stays inside is listed, and it serves the inside file.
  expect(resources.map((resource) => resource.name)).toEqual(["README.rst"]);
  const readme = await client.readResource({ uri: resources[0]?.uri ?? "" });
  expect(readme.contents[0]).toMatchObject({ text: expect.stringContaining("inside guide") });
  const served = await everythingServed(client, outsideFile);
  expect(served).toContain("inside guide");
  expect(served).not.toContain(MARKER);
  await swappedAfterListing(client, root, outsideFile);
}

describe("pinned files linked out of the project are served by no resource and no tool", () => {
  it.each(["git", "folder"] as const)(
    "MCP over stdio (a real subprocess), %s mode",
    async (mode) => {
      const { root, outsideFile } = hostileProject(mode);
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "serve", "--no-watch"],
        cwd: root,
        env: { PATH: process.env.PATH ?? "", HOME: root, XDG_CONFIG_HOME: root },
        stderr: "pipe",
      });
      const client = new Client({ name: "stdio-confined", version: "1" });
      await client.connect(transport);
      try {
        await expectConfined(client, root, outsideFile);
      } finally {
        await client.close();
      }
    },
    60_000,
  );

  it.each(["git", "folder"] as const)(
    "MCP over Streamable HTTP (a real port on 127.0.0.1), %s mode",
    async (mode) => {
      const { root, outsideFile } = hostileProject(mode);
      const engine = await ContextEngine.open({
        start: root,
        cwd: root,
        env: { XDG_CONFIG_HOME: root },
      });
      await engine.index([root]);
      const token = "confined-token";
      const server = await serveHttp(engine, { host: "127.0.0.1", port: 0, token });
      const client = new Client({ name: "http-confined", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      try {
        await expectConfined(client, root, outsideFile);
      } finally {
        await client.close();
        await server.close();
        await engine.close();
      }
    },
    60_000,
  );
});
