import { appendFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { runCli, runCliAsync } from "../helpers/run-cli.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const WORDS = ["retry", "backoff", "cache", "token", "budget", "parser", "index", "vector"];

/** 240 modules, enough that refreshing them takes each process a while. */
function modules(root: string): void {
  const files: Record<string, string> = {};
  for (let n = 0; n < 240; n++) {
    files[`src/module${n}.ts`] = WORDS.filter((_, index) => (n + index) % 3 !== 0)
      .map(
        (word, index) =>
          `/** ${word} helper ${n}: ${WORDS.join(" ")} */\nexport function ${word}${n}_${index}(value: number) {\n  return value > ${n} ? "${word} ${n}" : ${word}${n}_${index}(value + 1);\n}\n`,
      )
      .join("\n");
  }
  writeFiles(root, files);
}

function touchAll(root: string, mark: string): void {
  for (const name of readdirSync(join(root, "src"))) {
    appendFileSync(join(root, "src", name), `// ${mark}\n`);
  }
}

/** Results with their scores, without the resource id (a ULID, new in every index). */
function search(root: string, query: string): unknown[] {
  const result = runCli(["search", query, "--limit", "15", "--json", "--no-refresh"], root);
  expect(result.code, result.stderr).toBe(0);
  const { results } = JSON.parse(result.stdout) as { results: { id: string }[] };
  return results.map(({ id, ...rest }) => ({ ...rest, id: id.slice(id.indexOf(":") + 1) }));
}

describe("several ctx processes on one index", () => {
  it("queries refreshing the same changed files beside a ctx index all succeed, and the index equals a fresh one", async () => {
    const shared = tempDir();
    modules(shared);
    expect(runCli(["index", "."], shared).code).toBe(0);
    for (const round of ["first", "second"]) {
      // Every file changes, so each refresh rewrites all of them and compaction is due.
      touchAll(shared, round);
      const runs = await Promise.all([
        ...["retry backoff", "cache token", "parser index", "vector budget"].map((task) =>
          runCliAsync(["query", task, "--budget", "600"], shared),
        ),
        runCliAsync(["index", "."], shared),
      ]);
      for (const run of runs) expect(run.code, run.stderr).toBe(0);
    }

    const fresh = tempDir();
    modules(fresh);
    touchAll(fresh, "first");
    touchAll(fresh, "second");
    expect(runCli(["index", "."], fresh).code).toBe(0);
    for (const query of ["retry backoff", "cache token budget", "parser"]) {
      expect(search(shared, query)).toEqual(search(fresh, query));
    }
    const db = new Database(join(shared, ".ctx", "index.db"), { readonly: true });
    const sideTables = db
      .prepare("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'chunks_fts_next%'")
      .get() as { n: number };
    const lease = db.prepare("SELECT value FROM ctx_meta WHERE key = 'fts_rebuild_lease'").get();
    db.close();
    expect(sideTables.n).toBe(0);
    expect(lease).toBeUndefined();
  });

  it("two processes creating the same new index at once both succeed", async () => {
    const root = tempDir();
    modules(root);
    const runs = await Promise.all([
      runCliAsync(["index", "."], root),
      runCliAsync(["search", "retry", "--json"], root),
      runCliAsync(["query", "cache token", "--budget", "500"], root),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const status = JSON.parse(runCli(["status", "--json"], root).stdout) as {
      store: { documents: number };
    };
    expect(status.store.documents).toBe(240);
  });
});
