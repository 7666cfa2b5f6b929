import { appendFileSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { runCli, runCliAsync, spawnCli } from "../helpers/run-cli.js";
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

/** Every chunk of an index file by where it is and what it holds, in order. */
function chunkRows(root: string): unknown[] {
  const db = new Database(join(root, ".ctx", "index.db"), { readonly: true });
  const rows = db
    .prepare(
      `SELECT d.path, c.start_line, c.end_line, c.symbol, c.content, c.context, c.tokens
       FROM chunks c JOIN documents d ON d.id = c.document_id
       ORDER BY d.path, c.start_line, c.end_line`,
    )
    .all();
  db.close();
  return rows;
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
    // The same chunks as a fresh index, each once (scores may differ until the next
    // compaction: rows rewritten by a late refresh still count in BM25's statistics).
    expect(chunkRows(shared)).toEqual(chunkRows(fresh));
    const named = (chunkRows(fresh) as { path: string; symbol: string }[]).filter(
      (row) => row.symbol !== "",
    );
    for (const row of [0, 0.3, 0.6, 0.99].map((at) => named[Math.floor(at * named.length)])) {
      const [best] = search(shared, row?.symbol ?? "") as { path: string; symbol: string }[];
      expect(best).toMatchObject({ path: row?.path, symbol: row?.symbol });
    }
    const db = new Database(join(shared, ".ctx", "index.db"), { readonly: true });
    const sideTables = db
      .prepare("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'chunks_fts_next%'")
      .get() as { n: number };
    const lease = db.prepare("SELECT value FROM ctx_meta WHERE key = 'fts_rebuild_lease'").get();
    db.close();
    expect(sideTables.n).toBe(0);
    expect(lease).toBeUndefined();
  }, 90_000);

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

describe("ctx index stopped with Ctrl-C", () => {
  it("exits 130 saying so, and the next run goes on from what it wrote", async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let n = 0; n < 4000; n++) {
      files[`src/dir${n % 40}/part${n}.py`] = `def step${n}(value):\n    return value + ${n}\n`;
    }
    writeFiles(root, files);
    const child = spawnCli(["index", "."], root);
    // Signalled once the run has written its first files: under load, a fixed wait after the
    // index file appeared could fall before the first batch, leaving the next run nothing to go on from.
    const index = join(root, ".ctx", "index.db");
    while (!existsSync(`${index}-wal`) || writtenDocuments(index) === 0) await sleep(20);
    child.process.kill("SIGINT");
    const stopped = await child.result;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toContain("interrupted (SIGINT)");

    const next = runCli(["index", ".", "--json"], root);
    expect(next.code, next.stderr).toBe(0);
    const report = JSON.parse(next.stdout) as { added: number; changed: number; unchanged: number };
    expect(report.changed).toBe(0);
    expect(report.unchanged).toBeGreaterThan(0);
    expect(report.added + report.unchanged).toBe(4000);
  });
});

describe("a query while another process holds the index's write lock", () => {
  it("answers from the index as it is after the busy timeout, saying it did not refresh", async () => {
    const root = tempDir();
    modules(root);
    expect(runCli(["index", "."], root).code).toBe(0);
    appendFileSync(join(root, "src", "module3.ts"), "// changed\n");
    const holder = new Database(join(root, ".ctx", "index.db"));
    holder.exec("BEGIN IMMEDIATE");
    try {
      const query = await runCliAsync(["query", "retry backoff", "--budget", "500"], root);
      expect(query.code, query.stderr).toBe(0);
      expect(query.stderr).toContain("not refreshed, answering from the index as it is");
      expect(query.stderr).toContain("the index is busy");
      expect(query.stdout).toContain("retry");
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
  }, 30_000);
});

/** Documents the index file holds, read as another process sees them (0 while its tables are being made). */
function writtenDocuments(file: string): number {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare("SELECT count(*) AS n FROM documents").get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}
