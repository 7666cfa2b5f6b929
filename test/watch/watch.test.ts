import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { ProjectWatcher, type WatchReport } from "../../src/watch/project-watcher.js";
import { git, gitRepo, tempDir, writeFiles } from "../helpers/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));
const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function firstText(result: CallToolResult): string {
  const part = result.content[0];
  return part?.type === "text" ? part.text : "";
}

/** Asks again until `check` holds or `ms` pass; returns the last answer. */
async function eventually<T>(ask: () => Promise<T>, check: (value: T) => boolean, ms = 15_000) {
  const deadline = Date.now() + ms;
  let value = await ask();
  while (!check(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await ask();
  }
  return value;
}

describe("ctx serve keeps the index fresh (a real subprocess and the SDK's client)", () => {
  it("a saved, a deleted and an ignored file: get_context sees the change without refresh_index", async () => {
    const root = gitRepo({ "README.md": "# Demo\n", ".gitignore": "generated/\n" });
    cpSync(FIXTURES, join(root, "src"), { recursive: true });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve"],
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: root, XDG_CONFIG_HOME: root },
      stderr: "pipe",
    });
    const client = new Client({ name: "watch-test", version: "1" });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const context = async (task: string) =>
      firstText(
        (await client.callTool({
          name: "get_context",
          arguments: { task, budget_tokens: 800 },
        })) as CallToolResult,
      );
    // The start-up refresh has indexed the fixtures once a fixture is found.
    expect(
      await eventually(
        () => context("RetryRunner"),
        (text) => text.includes("sample.ts"),
      ),
    ).toMatch(/src\/sample\.ts/);

    writeFiles(root, {
      "generated/ignored.ts": "export function quokkaIgnoredHelper() { return 0; }\n",
      "node_modules/dep/index.js": "function quokkaDependency() {}\n",
      "src/added.ts": "export function quokkaFreshlySaved(): number {\n  return 42;\n}\n",
    });
    const seen = await eventually(
      () => context("quokkaFreshlySaved"),
      (text) => text.includes("## src/added.ts"),
    );
    expect(seen).toMatch(/## src\/added\.ts/);
    expect(seen).toContain("return 42;");
    const ignored = await context("quokkaIgnoredHelper quokkaDependency");
    expect(ignored).not.toContain("generated/ignored.ts");
    expect(ignored).not.toContain("node_modules/");

    writeFileSync(
      join(root, "src/added.ts"),
      "export function quokkaFreshlySaved(): number {\n  return 43;\n}\n",
    );
    expect(
      await eventually(
        () => context("quokkaFreshlySaved"),
        (text) => text.includes("return 43;"),
      ),
    ).not.toContain("return 42;");

    rmSync(join(root, "src/added.ts"));
    expect(
      await eventually(
        () => context("quokkaFreshlySaved"),
        (text) => !text.includes("src/added.ts"),
      ),
    ).not.toContain("src/added.ts");
  }, 60_000);
});

/** Every document's path, hash and chunks: what a query can find. */
async function snapshot(engine: ContextEngine) {
  const documents: unknown[] = [];
  for (const resource of await engine.store.documents.listResources()) {
    const docs = (await engine.store.documents.listDocuments(resource.id)).sort((a, b) =>
      a.path < b.path ? -1 : 1,
    );
    for (const doc of docs) {
      const chunks = await engine.store.documents.getDocumentChunks(resource.id, doc.path);
      documents.push({
        path: doc.path,
        hash: doc.hash,
        chunks: chunks.map((chunk) => [chunk.startLine, chunk.endLine, chunk.symbol, chunk.hash]),
      });
    }
  }
  const symbols = (await engine.findSymbols("feature*", { limit: 1000 }))
    .map((symbol) => `${symbol.path}:${symbol.name}`)
    .sort();
  return { documents, symbols };
}

function openEngine(root: string, db: string): Promise<ContextEngine> {
  return ContextEngine.open({ start: root, cwd: root, db, env: { XDG_CONFIG_HOME: root } });
}

describe("a git checkout under a watcher", () => {
  it("switching branches with hundreds of changed files ends equal to a fresh index of the new branch", async () => {
    const files: Record<string, string> = { "README.md": "# Branches\n" };
    for (let i = 0; i < 400; i++) {
      files[`src/m${i}.ts`] =
        `export function featureMain${i}(x: number): number {\n  return x + ${i};\n}\n`;
    }
    const root = realpathSync(gitRepo(files));
    git(root, "checkout", "--quiet", "-b", "feature");
    const changed: Record<string, string> = {};
    for (let i = 0; i < 200; i++) {
      changed[`src/m${i}.ts`] =
        `export function featureChanged${i}(): string {\n  return "v${i}";\n}\n`;
    }
    for (let i = 0; i < 150; i++) changed[`lib/n${i}.ts`] = `export const featureNew${i} = ${i};\n`;
    writeFiles(root, changed);
    for (let i = 300; i < 400; i++) rmSync(join(root, `src/m${i}.ts`));
    git(root, "add", "--all");
    git(root, "commit", "--quiet", "--message", "feature");
    git(root, "checkout", "--quiet", "main");

    const dbDir = tempDir("ctx-watch-db-");
    const engine = await openEngine(root, join(dbDir, "watched.db"));
    cleanups.push(() => engine.close());
    await engine.index([root]);
    const reports: WatchReport[] = [];
    const watcher = await ProjectWatcher.start(engine, { onReport: (r) => reports.push(r) });
    cleanups.push(() => watcher.close());

    git(root, "checkout", "--quiet", "feature");
    await eventually(
      async () => reports.filter((r) => r.kind === "indexed" && r.full).length,
      (count) => count > 0,
    );
    await watcher.idle();
    const batches = reports.filter((r) => r.kind === "indexed");
    expect(batches.filter((r) => r.kind === "indexed" && r.full)).toHaveLength(1);

    const fresh = await openEngine(root, join(dbDir, "fresh.db"));
    cleanups.push(() => fresh.close());
    await fresh.index([root]);
    const watched = await snapshot(engine);
    expect(watched.documents).toHaveLength(1 + 300 + 150);
    expect(watched).toEqual(await snapshot(fresh));
    expect(watched.symbols).toContain("lib/n7.ts:featureNew7");
    expect(watched.symbols).not.toContain("src/m350.ts:featureMain350");
  }, 120_000);
});

describe("ctx watch", () => {
  function startWatch(cwd: string): { child: ChildProcess; stderr: () => string } {
    let stderr = "";
    const child = spawn(process.execPath, [CLI, "watch"], {
      cwd,
      env: { PATH: process.env.PATH ?? "", HOME: cwd, XDG_CONFIG_HOME: cwd },
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr?.on("data", (data: Buffer) => {
      stderr += data.toString();
    });
    return { child, stderr: () => stderr };
  }

  it("reports a root that vanishes, keeps watching the others, and stops cleanly on SIGTERM", async () => {
    const project = realpathSync(tempDir("ctx-watch-"));
    const other = realpathSync(tempDir("ctx-watch-other-"));
    writeFiles(project, { "a.md": "# Alpha\n" });
    writeFiles(other, { "b.md": "# Beta\n" });
    const setup = spawn(process.execPath, [CLI, "index", project, other], {
      cwd: project,
      env: { PATH: process.env.PATH ?? "", HOME: project, XDG_CONFIG_HOME: project },
      stdio: "ignore",
    });
    expect(await new Promise((resolve) => setup.once("exit", resolve))).toBe(0);

    const { child, stderr } = startWatch(project);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    await eventually(
      async () => stderr(),
      (text) => text.includes("watching"),
    );
    // Moved away rather than deleted: the folder is gone from where the index has it.
    renameSync(other, `${other}-moved`);
    cleanups.push(async () => rmSync(`${other}-moved`, { recursive: true, force: true }));
    await eventually(
      async () => stderr(),
      (text) => text.includes("is gone"),
    );
    expect(stderr()).toContain(`root ${other} is gone`);

    writeFiles(project, { "c.md": "# Gamma\n" });
    await eventually(
      async () => stderr(),
      (text) => /changed path\(s\): 1 added/.test(text),
    );
    expect(stderr()).toMatch(/changed path\(s\): 1 added/);
    expect(child.exitCode).toBeNull();

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stderr()).toContain("stopped watching");
  }, 60_000);

  it("with [watch] poll_ms (no file events, as on a network folder) finds saved and deleted files by polling", async () => {
    const project = realpathSync(tempDir("ctx-watch-poll-"));
    writeFiles(project, {
      "ctx.toml": "[watch]\npoll_ms = 200\n",
      "a.md": "# Alpha\n",
      "b.md": "# Beta\n",
    });
    const { child, stderr } = startWatch(project);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    await eventually(
      async () => stderr(),
      (text) => text.includes("watching"),
    );
    expect(stderr()).toContain("looking for changes every 0.2 s");
    writeFiles(project, { "c.md": "# Gamma\n" });
    rmSync(join(project, "b.md"));
    const polled = await eventually(
      async () => stderr(),
      (text) => /re-indexed every root: 1 added, 0 changed, 1 removed/.test(text),
    );
    expect(polled).toMatch(/re-indexed every root: 1 added, 0 changed, 1 removed/);
    // A poll that finds nothing says nothing.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(stderr().match(/re-indexed every root/g)).toHaveLength(1);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);

  it("indexes every file of a folder created while it watches, and stops on SIGINT", async () => {
    const project = realpathSync(tempDir("ctx-watch-dir-"));
    writeFiles(project, { "a.md": "# Alpha\n" });
    const { child, stderr } = startWatch(project);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    await eventually(
      async () => stderr(),
      (text) => text.includes("watching"),
    );
    const folder = join(project, "docs");
    mkdirSync(folder);
    for (let i = 0; i < 20; i++) writeFileSync(join(folder, `n${i}.md`), `# Note ${i}\n`);
    const added = () =>
      [...stderr().matchAll(/(\d+) added/g)].reduce((sum, match) => sum + Number(match[1]), 0);
    expect(
      await eventually(
        async () => added(),
        (count) => count >= 21,
      ),
    ).toBe(21);
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  }, 60_000);
});
