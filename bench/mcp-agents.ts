/**
 * Many agents on one `ctx serve --http` (the built CLI in its own process, on
 * three.js): 32 SDK clients call get_context from the moment the server is up
 * (cold: it refreshes and starts watching as a user runs it) for 60 s; prints
 * p50/p99, the slowest first call, errors and "busy" answers. Then 10,000
 * `initialize` requests that never close their sessions; prints the server's
 * memory before them and after each quarter. CTX_BENCH_MCP_CLIENTS,
 * CTX_BENCH_MCP_SECONDS and CTX_BENCH_MCP_SESSIONS make a smaller run.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { threeJsCorpus } from "./corpus.js";
import { percentile } from "./percentile.js";

const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const CLIENTS = Number(process.env.CTX_BENCH_MCP_CLIENTS ?? 32);
const SECONDS = Number(process.env.CTX_BENCH_MCP_SECONDS ?? 60);
const SESSIONS = Number(process.env.CTX_BENCH_MCP_SESSIONS ?? 10_000);
const TASKS = [
  "Vector3 applyQuaternion",
  "WebGLRenderer shadow map",
  "GLTFLoader parse textures",
  "Raycaster intersectObjects",
  "AnimationMixer clipAction",
  "how are materials compiled into shader programs",
  "BufferGeometry computeVertexNormals",
  "OrbitControls damping",
];

/** The server's resident memory in MB, as `ps` reports it. */
function rssMb(pid: number): number {
  return (
    Number(
      execFileSync("ps", ["-o", "rss=", "-p", String(pid)])
        .toString()
        .trim(),
    ) / 1024
  );
}

/** Starts `ctx serve --http` on a free port and resolves with its URL once it listens. */
function startServer(
  root: string,
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, "serve", "--http", "127.0.0.1:0"], {
    cwd: root,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stderr?.on("data", (part: Buffer) => {
      seen += part.toString();
      const url = /at (http:\/\/\S+)/.exec(seen)?.[1];
      if (url) resolve({ child, url });
    });
    child.once("exit", (code) => reject(new Error(`ctx serve exited (${code}): ${seen}`)));
  });
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "agent", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** One `initialize` over plain HTTP whose session is never closed (an agent that went away). */
async function initializeOnly(url: string): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "gone", version: "1" },
      },
    }),
  });
  await response.text();
  return response.status;
}

const work = mkdtempSync(join(tmpdir(), "ctx-bench-agents-"));
const env = { PATH: process.env.PATH ?? "", HOME: work, XDG_CONFIG_HOME: work };
let server: ChildProcess | null = null;
try {
  const root = join(work, "three");
  cpSync(threeJsCorpus(), root, { recursive: true });
  execFileSync(process.execPath, [CLI, "index"], { cwd: root, env, stdio: "ignore" });

  const started = await startServer(root, env);
  server = started.child;
  const deadline = performance.now() + SECONDS * 1000;
  const latencies: number[] = [];
  const firstCalls: number[] = [];
  let errors = 0;
  let busy = 0;
  const errorKinds = new Set<string>();
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => connect(started.url)));
  await Promise.all(
    clients.map(async (client, c) => {
      for (let call = 0; performance.now() < deadline; call++) {
        const t = performance.now();
        let failure = "";
        try {
          const result = (await client.callTool(
            {
              name: "get_context",
              arguments: { task: TASKS[(c + call) % TASKS.length], budget_tokens: 2000 },
            },
            undefined,
            { timeout: 600_000 },
          )) as CallToolResult;
          const part = result.content[0];
          if (result.isError) failure = part?.type === "text" ? part.text : "error";
        } catch (error) {
          failure = (error as Error).message;
        }
        const ms = performance.now() - t;
        if (/busy/i.test(failure)) busy++;
        else if (failure) {
          errors++;
          errorKinds.add(failure.split("\n")[0]?.slice(0, 120) ?? "");
        } else {
          latencies.push(ms);
          if (call === 0) firstCalls.push(ms);
        }
      }
    }),
  );
  await Promise.all(clients.map((client) => client.close()));
  latencies.sort((a, b) => a - b);
  firstCalls.sort((a, b) => a - b);
  const p50 = percentile(latencies, 0.5);
  const p99 = percentile(latencies, 0.99);
  console.log(
    `${CLIENTS} clients for ${SECONDS} s, cold     ${latencies.length} answers, ${errors} errors, ${busy} busy`,
  );
  console.log(
    `get_context p50 / p99                ${p50.toFixed(0)} / ${p99.toFixed(0)} ms (p99 = ${(p99 / p50).toFixed(1)}× p50; target ≤ 5×)`,
  );
  for (const kind of [...errorKinds].slice(0, 3)) console.log(`  error: ${kind}`);
  console.log(
    `first call fastest / slowest         ${(firstCalls[0] ?? 0).toFixed(0)} / ${(firstCalls.at(-1) ?? 0).toFixed(0)} ms`,
  );

  // Memory at each quarter of the sessions: bounded sessions level off instead of growing with them.
  const pid = started.child.pid ?? 0;
  const memory = [rssMb(pid)];
  const statuses = new Map<number, number>();
  let next = 0;
  for (let quarter = 1; quarter <= 4; quarter++) {
    const upTo = Math.round((SESSIONS * quarter) / 4);
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < upTo) {
          next++;
          const status = await initializeOnly(started.url).catch(() => 0);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    memory.push(rssMb(pid));
  }
  const answered = [...statuses].map(([status, count]) => `${count}× ${status}`).join(", ");
  console.log(`${SESSIONS} sessions never closed          ${answered}`);
  console.log(
    `server memory at 0, ¼, ½, ¾, all       ${memory.map((mb) => mb.toFixed(0)).join(" / ")} MB`,
  );
} finally {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
}
