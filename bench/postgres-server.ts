/**
 * The PostgreSQL server the benchmarks use: CTX_BENCH_DATABASE_URL, else the
 * test cluster of scripts/start-test-postgres.sh, started when it is not up
 * (the script needs root). Null, after one line saying how to get a server,
 * when none can be reached: the other benchmarks still run.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";

const TEST_CLUSTER = "postgres://postgres:ctx-test@127.0.0.1:55432/postgres";

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function benchDatabaseUrl(): Promise<string | null> {
  const given = process.env.CTX_BENCH_DATABASE_URL;
  if (given !== undefined && given !== "") {
    if (await reachable(given)) return given;
    console.log("skipped: no PostgreSQL server answers at CTX_BENCH_DATABASE_URL");
    return null;
  }
  if (await reachable(TEST_CLUSTER)) return TEST_CLUSTER;
  // Only root can install and start the test cluster; anyone else is told how.
  if (process.getuid?.() === 0) {
    const script = fileURLToPath(new URL("../scripts/start-test-postgres.sh", import.meta.url));
    const started = spawnSync("bash", [script], { stdio: ["ignore", "ignore", "ignore"] });
    if (started.status === 0 && (await reachable(TEST_CLUSTER))) return TEST_CLUSTER;
  }
  console.log(
    "skipped: no PostgreSQL server; set CTX_BENCH_DATABASE_URL=postgres://… or run `sudo bash scripts/start-test-postgres.sh`",
  );
  return null;
}

/** Drops a schema the benchmark made; a failure (already gone) is not one. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
  await admin.end();
}
