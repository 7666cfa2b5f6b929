import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PostgresStore } from "../../src/store/postgres/postgres-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { runCli } from "../helpers/run-cli.js";
import { runPostgres, scratchSchema, TEST_DATABASE_URL } from "../helpers/store-adapters.js";
import { git, gitRepo, tempDir } from "../helpers/temp-dir.js";

/** Every search hit as "path:line score", sorted (equal scores rank by chunk id, which differ). */
function answers(root: string, query: string, env: NodeJS.ProcessEnv): string[] {
  const result = runCli(["search", query, "--json", "--limit", "1000", "--no-refresh"], root, env);
  expect(result.code, result.stderr).toBe(0);
  return (
    JSON.parse(result.stdout) as { results: { path: string; startLine: number; score: number }[] }
  ).results
    .map((hit) => `${hit.path}:${hit.startLine} ${hit.score}`)
    .sort();
}

describe.runIf(runPostgres)("ctx migrate", () => {
  it("copies an SQLite index with its contexts, vectors, graph, history and plans; the next run re-chunks nothing", async () => {
    const root = gitRepo({
      "src/retry.ts":
        "export function retryWithBackoff(attempts: number) {\n  return attempts * 2;\n}\n",
      "src/cache.ts":
        "import { retryWithBackoff } from './retry';\nexport class LruCache {\n  evict() { retryWithBackoff(1); }\n}\n",
      "README.md": "# Demo\n\nRetries and caches.\n",
    });
    writeFileSync(
      join(root, "src/retry.ts"),
      "export function retryWithBackoff(attempts: number) {\n  return attempts * 3;\n}\n",
    );
    git(root, "commit", "--quiet", "--all", "--message", "Retry three times as long");
    const schema = scratchSchema();
    writeFileSync(join(root, "ctx.toml"), `[store]\nschema = "${schema}"\nproject = "team/demo"\n`);
    // The project file names where its index goes: the user trusts it.
    const home = { XDG_CONFIG_HOME: tempDir("ctx-home-") };
    expect(runCli(["trust"], root, home).code).toBe(0);
    const file = join(root, ".ctx", "index.db");
    expect(runCli(["index"], root, home).code).toBe(0);
    expect(runCli(["plan", "create", "Rework the cache"], root, home).code).toBe(0);
    // Vectors as an embedder would have paid for them.
    const sqlite = SqliteStore.open(file, { create: false });
    const work = await sqlite.vectors.listUnembedded("paid-embedder", 100);
    await sqlite.vectors.putEmbeddings(
      "paid-embedder",
      3,
      work.map((item, i) => ({
        embedHash: item.embedHash,
        vector: new Float32Array([i + 1, 1, 0]),
      })),
    );
    const coverage = await sqlite.vectors.embeddingCoverage("paid-embedder");
    await sqlite.close();

    const migrated = runCli(
      ["migrate", "--from", file, "--to", TEST_DATABASE_URL, "--json"],
      root,
      home,
    );
    expect(migrated.code, migrated.stderr).toBe(0);
    const report = JSON.parse(migrated.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      resources: 1,
      documents: 4,
      commits: 2,
      plans: 1,
      vectors: work.length,
      project: "team/demo",
    });
    expect(migrated.stdout).not.toContain(new URL(TEST_DATABASE_URL).password);

    const server = { ...home, CTX_DATABASE_URL: TEST_DATABASE_URL };
    const status = (env: NodeJS.ProcessEnv) => {
      const shown = JSON.parse(runCli(["status", "--json"], root, env).stdout) as {
        store: Record<string, unknown>;
        resources: { id: string; history: unknown }[];
      };
      // Where the index lives (a file, or a schema on the server with its size) differs by design.
      const {
        schemaVersion: _version,
        bytes: _bytes,
        lastIndexedAt: _at,
        server: _server,
        ...store
      } = shown.store;
      return { store, resources: shown.resources.map((r) => [r.id, r.history]) };
    };
    expect(status(server)).toEqual(status(home));
    for (const question of ["retry backoff", "LruCache evict", "demo caches"]) {
      expect(answers(root, question, server)).toEqual(answers(root, question, home));
    }
    const plans = (env: NodeJS.ProcessEnv) =>
      (JSON.parse(runCli(["plan", "list", "--json"], root, env).stdout) as { title: string }[]).map(
        (p) => p.title,
      );
    expect(plans(server)).toEqual(["Rework the cache"]);
    const postgres = await PostgresStore.open(TEST_DATABASE_URL, { project: "team/demo", schema });
    expect(await postgres.vectors.embeddingCoverage("paid-embedder")).toEqual(coverage);
    expect(
      (
        await postgres.history.fileCommits(
          (await postgres.documents.listResources())[0]?.id ?? "",
          "src/retry.ts",
          5,
        )
      ).map((c) => c.subject),
    ).toEqual(["Retry three times as long", "initial"]);
    await postgres.close();

    // What was copied is current: a run on the server writes no chunk again.
    const again = runCli(["index", "--json"], root, server);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ added: 0, changed: 0, removed: 0 });
    // A second copy into the same project is refused, in one line.
    const twice = runCli(["migrate", "--from", file, "--to", TEST_DATABASE_URL], root, home);
    expect(twice.code).toBe(1);
    expect(twice.stderr.trim()).toMatch(/project team\/demo already holds an index there/);
  }, 240_000);
});
