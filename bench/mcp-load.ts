/**
 * MCP load on loopback: 50 concurrent get_context calls over Streamable HTTP
 * while refresh_index re-indexes 300 changed files of three.js. Prints errors,
 * budget violations and p50/p99 latency. Bounded: one round, one machine.
 */
import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ContextEngine, o200kCounter } from "../dist/index.js";
import { serveHttp } from "../dist/mcp/serve-http.js";
import { threeJsCorpus } from "./corpus.js";
import { percentile } from "./percentile.js";

const CALLS = 50;
const BUDGET = 2000;
const TASKS = [
  "Vector3 applyQuaternion",
  "WebGLRenderer shadow map",
  "GLTFLoader parse textures",
  "Raycaster intersectObjects",
  "AnimationMixer clipAction",
];

const work = mkdtempSync(join(tmpdir(), "ctx-bench-mcp-"));
try {
  const root = join(work, "three");
  cpSync(threeJsCorpus(), root, { recursive: true });
  const engine = await ContextEngine.open({
    start: root,
    cwd: root,
    env: { XDG_CONFIG_HOME: work },
  });
  await engine.index([root]);
  const server = await serveHttp(engine, { host: "127.0.0.1", port: 0 });
  const client = new Client({ name: "load", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));

  const mathDir = join(root, "src");
  const files = (readdirSync(mathDir, { recursive: true }) as string[])
    .filter((file) => file.endsWith(".js"))
    .slice(0, 300);
  for (const file of files)
    appendFileSync(join(mathDir, file), "\n// touched by the load benchmark\n");

  const refresh = client.callTool({ name: "refresh_index", arguments: {} }, undefined, {
    timeout: 600_000,
  });
  const latencies: number[] = [];
  let errors = 0;
  let overBudget = 0;
  await Promise.all(
    Array.from({ length: CALLS }, async (_, index) => {
      const started = performance.now();
      const result = (await client.callTool({
        name: "get_context",
        arguments: { task: TASKS[index % TASKS.length], budget_tokens: BUDGET },
      })) as CallToolResult;
      latencies.push(performance.now() - started);
      const part = result.content[0];
      if (result.isError || part?.type !== "text") errors++;
      else if (o200kCounter.count(part.text) > BUDGET) overBudget++;
    }),
  );
  const refreshed = (await refresh) as CallToolResult;
  await client.close();
  await server.close();
  await engine.close();
  latencies.sort((a, b) => a - b);
  const report = refreshed.content[0]?.type === "text" ? JSON.parse(refreshed.content[0].text) : {};
  console.log(
    `get_context calls during refresh   ${CALLS} (refresh: ${report.changed ?? "?"} changed files)`,
  );
  console.log(`errors / over budget               ${errors} / ${overBudget}`);
  console.log(
    `latency p50 / p99                  ${percentile(latencies, 0.5).toFixed(0)} / ${percentile(latencies, 0.99).toFixed(0)} ms`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
