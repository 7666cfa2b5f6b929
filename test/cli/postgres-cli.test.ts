import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  canStartCluster,
  type PrivateCluster,
  startPrivateCluster,
} from "../helpers/private-postgres.js";
import { runCli, spawnCli } from "../helpers/run-cli.js";
import { runPostgres, scratchSchema, TEST_DATABASE_URL } from "../helpers/store-adapters.js";
import { gitRepo, tempDir } from "../helpers/temp-dir.js";

const BEIR_MINI = fileURLToPath(new URL("../fixtures/beir-mini", import.meta.url));

const PASSWORD = new URL(TEST_DATABASE_URL).password;
const MASKED = TEST_DATABASE_URL.replace(`:${PASSWORD}@`, ":***@");

const FILES = {
  "src/retry.ts":
    "export function retryWithBackoff(attempts: number) {\n  return attempts * 2;\n}\n",
  "src/cache.ts": "export class LruCache {\n  evict() {}\n}\n",
  "README.md": "# Demo\n\nRetries and caches.\n",
};

/** A checkout whose index lives in a schema of its own on the test server (dropped after). */
function serverProject(files: Record<string, string> = FILES): {
  root: string;
  schema: string;
  env: NodeJS.ProcessEnv;
} {
  const root = gitRepo(files);
  const schema = scratchSchema();
  writeFileSync(join(root, "ctx.toml"), `[store]\nschema = "${schema}"\n`);
  const env = { CTX_DATABASE_URL: TEST_DATABASE_URL, XDG_CONFIG_HOME: tempDir("ctx-home-") };
  trust(root, env);
  return { root, schema, env };
}

/** Where in a shared server a project's index goes is the project file's to say only once trusted. */
function trust(root: string, env: NodeJS.ProcessEnv): void {
  const trusted = runCli(["trust"], root, env);
  expect(trusted.code, trusted.stderr).toBe(0);
}

/**
 * Every hit of `ctx search` as "path:line score", sorted: what a clean index
 * must answer too (equal scores rank by chunk id, which a resumed run numbers
 * otherwise).
 */
function searchAnswers(
  root: string,
  query: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): string[] {
  const result = runCli(["search", query, "--json", "--limit", "1000", ...args], root, env);
  expect(result.code, result.stderr).toBe(0);
  return (
    JSON.parse(result.stdout) as { results: { path: string; startLine: number; score: number }[] }
  ).results
    .map((hit) => `${hit.path}:${hit.startLine} ${hit.score}`)
    .sort();
}

describe.runIf(runPostgres)("ctx on a PostgreSQL server", () => {
  it("indexes, queries and shows status through CTX_DATABASE_URL, the password never printed", () => {
    const { root, env } = serverProject();
    const indexed = runCli(["index"], root, env);
    expect(indexed.code, indexed.stderr).toBe(0);
    const query = runCli(
      ["query", "retry with backoff", "--format", "json", "--budget", "800"],
      root,
      env,
    );
    expect(query.code, query.stderr).toBe(0);
    const answer = JSON.parse(query.stdout) as { fragments: { path: string }[] };
    expect(answer.fragments[0]?.path).toBe("src/retry.ts");
    const status = runCli(["status"], root, env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`Index: ${MASKED}`);
    const json = runCli(["status", "--json"], root, env);
    expect(JSON.parse(json.stdout)).toMatchObject({ indexPath: MASKED, store: { documents: 4 } });
    for (const output of [indexed, query, status, json]) {
      expect(output.stdout + output.stderr).not.toContain(PASSWORD);
    }
    // No index file was made: the project's index is on the server.
    expect(runCli(["status", "--db", join(root, ".ctx", "index.db")], root).code).toBe(1);
  }, 120_000);

  it("shows the schema's size on disk and how many projects share it, text and JSON", () => {
    const { root, schema, env } = serverProject();
    expect(runCli(["index"], root, env).code).toBe(0);
    const alone = JSON.parse(runCli(["status", "--json"], root, env).stdout) as {
      indexBytes: number;
      store: { documents: number; server: { schema: string; bytes: number; projects: number } };
    };
    expect(alone.store.server).toMatchObject({ schema, projects: 1 });
    expect(alone.store.server.bytes).toBeGreaterThan(0);
    expect(alone.indexBytes).toBe(alone.store.server.bytes);
    // A second project in the same schema: the size is the schema's, shared by both.
    const other = gitRepo({ "lib/other.ts": "export const other = 1;\n" });
    writeFileSync(
      join(other, "ctx.toml"),
      `[store]\nschema = "${schema}"\nproject = "team/other"\n`,
    );
    trust(other, env);
    expect(runCli(["index"], other, env).code).toBe(0);
    const text = runCli(["status"], root, env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`Index: ${MASKED} (`);
    expect(text.stdout).toMatch(/\(\d+(\.\d+)? (B|KB|MB|GB) in schema /);
    expect(text.stdout).toContain(`in schema ${schema}, shared with 1 other project, schema v`);
    expect(text.stdout).toMatch(/Files of project local\/[^:]+: 4 \(/);
    expect(text.stdout).not.toContain(PASSWORD);
    const shared = JSON.parse(runCli(["status", "--json"], other, env).stdout) as typeof alone;
    expect(shared.store.server).toMatchObject({ schema, projects: 2 });
    expect(shared.store.documents).toBe(2); // lib/other.ts and ctx.toml
  }, 120_000);

  it("takes the server from --db and from [store] url as well", () => {
    const root = gitRepo(FILES);
    const schema = scratchSchema();
    writeFileSync(
      join(root, "ctx.toml"),
      `[store]\nurl = "${TEST_DATABASE_URL}"\nschema = "${schema}"\nproject = "team/demo"\n`,
    );
    const env = { XDG_CONFIG_HOME: tempDir("ctx-home-") };
    // Untrusted, the file may not send the code to a server: the index stays a local file.
    const untrusted = runCli(["index"], root, env);
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(untrusted.stderr).toContain("ignoring store.url, store.schema, store.project in ");
    expect(untrusted.stdout).toContain(`Index: ${join(root, ".ctx", "index.db")}`);
    trust(root, env);
    expect(runCli(["index"], root, env).code).toBe(0);
    const viaFlag = runCli(["search", "LruCache", "--json", "--db", TEST_DATABASE_URL], root, env);
    expect(viaFlag.code, viaFlag.stderr).toBe(0);
    expect((JSON.parse(viaFlag.stdout) as { results: { path: string }[] }).results[0]?.path).toBe(
      "src/cache.ts",
    );
    const status = JSON.parse(runCli(["status", "--json"], root, env).stdout) as {
      project: string;
      indexPath: string;
    };
    expect(status).toMatchObject({ project: "team/demo", indexPath: MASKED });
  }, 120_000);

  it("fails in one line naming the server for a refused connection and a wrong password, exit 1", () => {
    const root = gitRepo(FILES);
    const refused = runCli(["status", "--db", "postgres://ctx:s3cret@127.0.0.1:1/ctx"], root);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      "ctx: postgres://ctx:***@127.0.0.1:1/ctx: cannot connect to the PostgreSQL server (connection refused): start it, or check the host and port in the URL",
    );
    const wrong = new URL(TEST_DATABASE_URL);
    wrong.password = "not-the-password";
    const denied = runCli(["index", "--db", wrong.toString()], root);
    expect(denied.code).toBe(1);
    expect(denied.stderr.trim().split("\n")).toEqual([
      `ctx: ${wrong.toString().replace(":not-the-password@", ":***@")}: the server refused the login (wrong user or password): check the URL's user and password`,
    ]);
    expect(denied.stderr).not.toContain("not-the-password");
  }, 120_000);

  it("after a kill -9 mid-index, the next run leaves an index that answers as a clean one", async () => {
    const files: Record<string, string> = {};
    const filler = `// ${"padding to make the file take time to index ".repeat(60)}\n`;
    for (let i = 0; i < 400; i++) {
      files[`src/m${i}.ts`] =
        `${filler}export function step${i}(): number {\n  return ${i} + retries${i % 7};\n}\n`;
    }
    const { root, schema, env } = serverProject(files);
    const run = spawnCli(["index"], root, env);
    await documentsWritten(TEST_DATABASE_URL, schema, 50);
    run.process.kill("SIGKILL");
    const killed = await run.result;
    const partial = await documentCount(TEST_DATABASE_URL, schema);
    if (killed.code === 137) expect(partial).toBeLessThan(401);
    const again = runCli(["index"], root, env);
    expect(again.code, again.stderr).toBe(0);
    const clean = ["--db", join(root, "clean.db")];
    expect(runCli(["index", ...clean], root).code).toBe(0);
    for (const question of ["step41", "retries3 step", "padding index"]) {
      expect(searchAnswers(root, question, [], env)).toEqual(searchAnswers(root, question, clean));
    }
  }, 240_000);

  it("evaluates in a temporary schema, with SQLite's figures, and drops the schema after", async () => {
    const evalSchemas = async () => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string }>(
          "SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'ctx_eval_%'",
        );
        return rows.map((row) => row.name);
      } finally {
        await client.end();
      }
    };
    const before = await evalSchemas();
    const figures = (args: string[]) => {
      const result = runCli(["eval", BEIR_MINI, "--json", ...args], tempDir());
      expect(result.code, result.stderr).toBe(0);
      const { qps: _speed, ...rest } = JSON.parse(result.stdout) as Record<string, unknown>;
      return rest;
    };
    expect(figures(["--db", TEST_DATABASE_URL])).toEqual(figures([]));
    expect(await evalSchemas()).toEqual(before);
  }, 120_000);
});

/** Documents the schema holds now (0 before its tables exist). */
async function documentCount(url: string, schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ${schema}.documents`,
    );
    return Number(rows[0]?.n ?? 0);
  } catch {
    return 0;
  } finally {
    await client.end();
  }
}

/** Waits until the schema holds at least `count` documents: the run is under way. */
async function documentsWritten(url: string, schema: string, count: number): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    if ((await documentCount(url, schema)) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const clusters: PrivateCluster[] = [];
afterAll(() => {
  for (const cluster of clusters.splice(0)) cluster.stop();
});

describe.runIf(runPostgres && canStartCluster)("a PostgreSQL restart during ctx index", () => {
  it("fails the run in one line naming the server; the next run resumes and answers as a clean index", async () => {
    const cluster = startPrivateCluster();
    clusters.push(cluster);
    const files: Record<string, string> = {};
    const filler = `// ${"padding to make the file take time to index ".repeat(60)}\n`;
    for (let i = 0; i < 1000; i++) {
      files[`src/m${i}.ts`] =
        `${filler}export function step${i}(): number {\n  return ${i} + retries${i % 7};\n}\n`;
    }
    const root = gitRepo(files);
    const env = { CTX_DATABASE_URL: cluster.url };
    const run = spawnCli(["index"], root, env);
    await documentsWritten(cluster.url, "ctx", 20);
    cluster.restart();
    const cut = await run.result;
    expect(cut.code).toBe(1);
    expect(cut.stderr.trim().split("\n").at(-1)).toBe(
      `ctx: ${cluster.url}: the PostgreSQL server closed the connection (it restarted or shut down); what was not committed was rolled back, so run the command again once the server is up and it goes on from there`,
    );
    const again = runCli(["index"], root, env);
    expect(again.code, again.stderr).toBe(0);
    const shown = runCli(["status", "--json"], root, env);
    expect(shown.code, shown.stderr).toBe(0);
    const status = JSON.parse(shown.stdout) as { store: { documents: number } };
    expect(status.store.documents).toBe(1000);
    const clean = ["--db", join(root, "clean.db")];
    expect(runCli(["index", ...clean], root).code).toBe(0);
    for (const question of ["step41", "retries3 step", "padding index"]) {
      expect(searchAnswers(root, question, [], env)).toEqual(searchAnswers(root, question, clean));
    }
  }, 240_000);
});
