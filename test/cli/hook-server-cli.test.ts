import { chmodSync, existsSync, lstatSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, spawnCli } from "../helpers/run-cli.js";
import { gitRepo } from "../helpers/temp-dir.js";

const OLD_BODY =
  "export function parcelRouter(): string {\n  return 'route by the old table';\n}\n";
const NEW_BODY =
  "export function parcelRouter(): string {\n  return 'route by the new table';\n}\n";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** The context the hook gave for a prompt, or "" when it gave none. */
async function hookContext(
  root: string,
  prompt: string,
): Promise<{ context: string; stderr: string }> {
  const input = JSON.stringify({ prompt, cwd: root, hook_event_name: "UserPromptSubmit" });
  // Not spawnSync: this process may itself be serving what the hook calls.
  const started = spawnCli(["hook", "claude-code", "--budget", "800"], root);
  started.process.stdin?.end(input);
  const result = await started.result;
  expect(result.code, result.stderr).toBe(0);
  const context =
    result.stdout.trim() === ""
      ? ""
      : (JSON.parse(result.stdout).hookSpecificOutput.additionalContext as string);
  return { context, stderr: result.stderr };
}

/** A project indexed with the old body, then edited on disk to the new one. */
function editedProject(): string {
  const root = gitRepo({ "src/router.ts": OLD_BODY });
  expect(runCli(["index"], root).code).toBe(0);
  writeFileSync(join(root, "src/router.ts"), NEW_BODY);
  return root;
}

/**
 * `ctx serve --http` that neither refreshes nor watches: it answers from the
 * index as it was, so an answer with the old body came from it, and one with
 * the new body from a hook that refreshed and answered itself.
 */
async function startServer(root: string, env: NodeJS.ProcessEnv = {}) {
  const served = spawnCli(
    ["serve", "--http", "127.0.0.1:0", "--no-refresh", "--no-watch"],
    root,
    env,
  );
  let stderr = "";
  served.process.stderr?.on("data", (data: Buffer) => {
    stderr += data.toString();
  });
  for (let waited = 0; !/serving .* at http:/.test(stderr); waited += 50) {
    if (waited > 30_000) throw new Error(`the server did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  stops.push(async () => {
    served.process.kill("SIGKILL");
    await served.result;
  });
  return served;
}

/** A local HTTP server that records every request it gets (and answers none usefully). */
async function recordingServer(host: string): Promise<{ port: number; requests: string[] }> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  stops.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, requests };
}

function writeServerFile(root: string, url: string, mode: number): void {
  const file = join(root, ".ctx", "server.json");
  writeFileSync(file, JSON.stringify({ url, token: null, pid: process.pid, root }));
  chmodSync(file, mode);
}

describe("the prompt hook and a running ctx serve --http", () => {
  it("answers through the project's running server, which announces itself in a private file", async () => {
    const root = editedProject();
    const served = await startServer(root);
    const file = join(root, ".ctx", "server.json");
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
    const announced = JSON.parse(readFileSync(file, "utf8")) as { url: string; pid: number };
    expect(announced.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(announced.pid).toBe(served.process.pid);

    const { context } = await hookContext(root, "parcelRouter table");
    expect(context).toContain("route by the old table");
    expect(context).toMatch(/Context Engine request \w+/);

    // Stopped as a user stops it, the server takes its file away.
    served.process.kill("SIGTERM");
    await served.result;
    expect(existsSync(file)).toBe(false);
  });

  it("sends the token of a server that asks for one, from the file only the user can read", async () => {
    const root = editedProject();
    await startServer(root, { CTX_MCP_TOKEN: "hook-test-token" });
    const announced = JSON.parse(readFileSync(join(root, ".ctx", "server.json"), "utf8"));
    expect(announced.token).toBe("hook-test-token");
    // The hook's own environment has no token: it comes from the file.
    const { context } = await hookContext(root, "parcelRouter table");
    expect(context).toContain("route by the old table");
  });

  it("answers itself when the file names a server that is gone", async () => {
    const root = editedProject();
    const served = await startServer(root);
    served.process.kill("SIGKILL");
    await served.result;
    // Killed, it could not clean up: the file stays and names a dead process.
    expect(existsSync(join(root, ".ctx", "server.json"))).toBe(true);
    const { context, stderr } = await hookContext(root, "parcelRouter table");
    expect(context).toContain("route by the new table");
    // A server that died is normal, not worth a line.
    expect(stderr).not.toContain("server");
  });

  it("never sends the prompt off loopback, nor to a server named by a file others can write", async () => {
    const root = editedProject();
    // 0.0.0.0 reaches this machine's listeners, yet it is not a loopback name.
    const offLoopback = await recordingServer("0.0.0.0");
    writeServerFile(root, `http://0.0.0.0:${offLoopback.port}/mcp`, 0o600);
    const first = await hookContext(root, "parcelRouter table");
    expect(first.context).toContain("route by the new table");
    expect(first.stderr).toContain("not a loopback address");
    expect(offLoopback.requests).toEqual([]);

    // As git checks a committed file out: readable by all. Never used.
    const local = await recordingServer("127.0.0.1");
    writeServerFile(root, `http://127.0.0.1:${local.port}/mcp`, 0o644);
    const second = await hookContext(root, "parcelRouter table");
    expect(second.context).toContain("route by the new table");
    expect(second.stderr).toContain("only this user can read and write");
    expect(local.requests).toEqual([]);
  });

  it("answers itself when the named loopback server is not Context Engine", async () => {
    const root = editedProject();
    const other = await recordingServer("127.0.0.1");
    writeServerFile(root, `http://127.0.0.1:${other.port}/mcp`, 0o600);
    const { context } = await hookContext(root, "parcelRouter table");
    expect(context).toContain("route by the new table");
    // It was asked to start a session, and nothing more.
    expect(other.requests).toEqual(["POST /mcp"]);
  });
});
