/**
 * The PostgreSQL store beside the SQLite one on the same corpus (three.js):
 * index time, query latency p50/p99 over 150 queries, and query throughput with
 * 16 concurrent clients (16 engines, each with its own connections, in this
 * process). Print-only; needs a server (bench/postgres-server.ts: CTX_BENCH_DATABASE_URL,
 * else the test cluster of scripts/start-test-postgres.sh, started when root can).
 * Runs the built library (dist/).
 * The server-side schema it makes is dropped at the end.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ContextEngine } from "../dist/index.js";
import { threeJsCorpus } from "./corpus.js";
import { percentile } from "./percentile.js";
import { benchDatabaseUrl, dropSchema } from "./postgres-server.js";

const SCHEMA = `ctx_bench_${process.pid}`;
const CLIENTS = 16;
const QUERIES = 150;
const TEMPLATES = [
  (symbol: string) => symbol,
  (symbol: string) => `how does ${symbol} work`,
  (symbol: string) => `where is ${symbol} used and what does it return`,
];

async function open(corpus: string, db: string, work: string): Promise<ContextEngine> {
  // The schema comes from the user config written in `work` (a schema of the bench's own).
  return ContextEngine.open({ start: corpus, db, env: { XDG_CONFIG_HOME: work } });
}

async function measure(name: string, corpus: string, db: string, work: string, tasks: string[]) {
  const engine = await open(corpus, db, work);
  const started = performance.now();
  const report = await engine.index([corpus]);
  const indexSeconds = (performance.now() - started) / 1000;
  const times: number[] = [];
  for (const task of tasks) {
    const t = performance.now();
    await engine.query({ task, budget: 4000 });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  await engine.close();
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => open(corpus, db, work)));
  const concurrentStart = performance.now();
  await Promise.all(
    clients.map(async (client, c) => {
      for (let i = c; i < tasks.length; i += CLIENTS) {
        await client.query({ task: tasks[i] as string, budget: 4000 });
      }
    }),
  );
  const throughput = tasks.length / ((performance.now() - concurrentStart) / 1000);
  await Promise.all(clients.map((client) => client.close()));
  console.log(
    `${name.padEnd(11)} index ${indexSeconds.toFixed(1)} s (${report.added} files, ${report.chunks} chunks) · query p50 ${percentile(times, 0.5).toFixed(0)} ms, p99 ${percentile(times, 0.99).toFixed(0)} ms · ${CLIENTS} clients ${throughput.toFixed(1)} queries/s`,
  );
}

async function main(url: string): Promise<void> {
  const corpus = threeJsCorpus();
  const work = mkdtempSync(join(tmpdir(), "ctx-bench-pg-"));
  mkdirSync(join(work, "ctx"));
  writeFileSync(join(work, "ctx", "config.toml"), `[store]\nschema = "${SCHEMA}"\n`);
  try {
    const sqliteFile = join(work, "index.db");
    const probe = await open(corpus, sqliteFile, work);
    await probe.index([corpus]);
    const symbols = (await probe.findSymbols("*", { limit: 5000 }))
      .map((symbol) => symbol.name)
      .filter((name) => name.length > 3);
    await probe.close();
    rmSync(sqliteFile, { force: true });
    const tasks = Array.from({ length: QUERIES }, (_, i) =>
      (TEMPLATES[i % TEMPLATES.length] as (s: string) => string)(
        symbols[(i * 7919) % symbols.length] as string,
      ),
    );
    await measure("SQLite", corpus, join(work, "bench.db"), work, tasks);
    await measure("PostgreSQL", corpus, url, work, tasks);
  } finally {
    await dropSchema(url, SCHEMA);
    rmSync(work, { recursive: true, force: true });
  }
}

const url = await benchDatabaseUrl();
if (url !== null) await main(url);
