import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { runCli } from "../helpers/run-cli.js";
import { git, gitRepo, tempDir } from "../helpers/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));
const BEIR_MINI = fileURLToPath(new URL("../fixtures/beir-mini", import.meta.url));

function fixtureRepo(): string {
  const root = gitRepo({ "README.md": "# Retry demo\n\nShows how retries are configured.\n" });
  cpSync(FIXTURES, join(root, "src"), { recursive: true });
  git(root, "add", "--all");
  git(root, "commit", "--quiet", "--message", "code");
  return root;
}

describe("ctx CLI", () => {
  it("answers a query on a fresh clone: builds the index first, then fits the budget", () => {
    const root = fixtureRepo();
    const result = runCli(
      ["query", "how are retries configured", "--budget", "600", "--format", "json"],
      root,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Indexed .* \(git\): 12 files — 12 added/);
    expect(existsSync(join(root, ".ctx", "index.db"))).toBe(true);
    const output = JSON.parse(result.stdout) as {
      tokensUsed: number;
      fragments: { path: string }[];
    };
    expect(o200kCounter.count(result.stdout)).toBeLessThanOrEqual(600);
    expect(output.tokensUsed).toBe(o200kCounter.count(result.stdout));
    expect(output.fragments.length).toBeGreaterThan(0);
    // The index folder ignores itself, so git never lists it.
    expect(git(root, "status", "--porcelain")).toBe("");
  });

  it("indexes, re-indexes incrementally and reports every skip reason", () => {
    const root = fixtureRepo();
    writeFileSync(join(root, "blob"), Buffer.from([0, 1, 2, 3]));
    const first = runCli(["index", "."], root);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/12 files — 12 added, 0 changed, 0 removed, 0 unchanged/);
    expect(first.stdout).toMatch(
      /Skipped: too-large 0, over-total-limit 0, binary 1, ignored 0, unreadable 0, outside-root 0/,
    );

    writeFileSync(join(root, "src", "sample.go"), "package retry\n\nfunc Changed() {}\n");
    const second = runCli(["index", "--json"], root);
    const report = JSON.parse(second.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ added: 0, changed: 1, removed: 0, unchanged: 11 });
  });

  it("searches with identifiers and prints JSON results", () => {
    const root = fixtureRepo();
    runCli(["index"], root);
    const result = runCli(["search", "RetryConfig", "--limit", "20", "--json"], root);
    expect(result.code, result.stderr).toBe(0);
    const parsed = JSON.parse(result.stdout) as {
      query: string;
      results: { path: string; symbol: string; snippet: string }[];
    };
    expect(parsed.query).toBe("RetryConfig");
    expect(parsed.results.length).toBeGreaterThan(1);
    expect(parsed.results.length).toBeLessThanOrEqual(20);
    expect(parsed.results.map((r) => r.path)).toContain("src/sample.ts");
    expect(parsed.results[0]?.snippet.toLowerCase()).toContain("retry");
    // The class → method hierarchy is part of each result.
    const run = runCli(["search", "RetryRunner run attempts", "--json"], root);
    const methods = (
      JSON.parse(run.stdout) as { results: { symbol: string; parent: string; kind: string }[] }
    ).results;
    expect(methods).toContainEqual(
      expect.objectContaining({ symbol: "run", parent: "RetryRunner", kind: "method" }),
    );
  });

  it("refreshes changed files before a query unless --no-refresh, from any folder of the project", () => {
    const root = fixtureRepo();
    runCli(["index"], root);
    writeFileSync(join(root, "src", "fresh.py"), "def quasarFluxCapacitor():\n    return 88\n");
    const subdir = join(root, "src");
    const stale = runCli(
      ["query", "quasarFluxCapacitor", "--no-refresh", "--format", "json"],
      subdir,
    );
    expect(JSON.parse(stale.stdout).fragments).toEqual([]);
    const fresh = runCli(["query", "quasarFluxCapacitor", "--format", "json"], subdir);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(JSON.parse(fresh.stdout).fragments[0].path).toBe("src/fresh.py");
    expect(fresh.stderr).toMatch(/Refreshed: 1 added/);
  });

  it("shows status with files, chunks and skipped files by reason", () => {
    const root = fixtureRepo();
    runCli(["index"], root);
    const text = runCli(["status"], root);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/Files: 12 .* chunks: \d+/);
    expect(text.stdout).toMatch(/skipped: too-large 0, over-total-limit 0, binary 0, ignored 0/);
    const json = JSON.parse(runCli(["status", "--json"], root).stdout) as {
      store: { documents: number };
      resources: unknown[];
    };
    expect(json.store.documents).toBe(12);
    expect(json.resources.length).toBe(1);
  });

  it("evaluates a BEIR folder and prints the exact JSON keys", () => {
    const result = runCli(["eval", BEIR_MINI, "--json"], tempDir());
    expect(result.code, result.stderr).toBe(0);
    const parsed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual([
      "dataset",
      "strategy",
      "queries",
      "pass@5",
      "pass@10",
      "pass@20",
      "ndcg@10",
      "mrr@10",
      "qps",
    ]);
    expect(parsed).toMatchObject({
      dataset: "beir-mini",
      strategy: "simple-keyword+semantic-embedding+breadth-depth-navigator",
      queries: 3,
      "pass@5": 100,
    });
  });

  describe("errors: one line naming the problem, non-zero exit, nothing lost", () => {
    it("a missing folder", () => {
      const cwd = tempDir();
      const result = runCli(["index", join(cwd, "nope")], cwd);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(/^ctx: folder to index not found: .*nope/);
    });

    it("a bad flag value or an unknown flag", () => {
      const cwd = tempDir();
      const bad = runCli(["query", "x", "--budget", "lots"], cwd);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--budget.*positive whole number/);
      expect(runCli(["query", "x", "--budgett", "5"], cwd).code).toBe(2);
      expect(runCli(["search", "x", "--limit", "0"], cwd).code).toBe(2);
    });

    it("status with no index", () => {
      const cwd = tempDir();
      const result = runCli(["status"], cwd);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/no index at .*index\.db: run `ctx index <path>` first/);
    });

    it("a corrupt index file is reported and left untouched", () => {
      const cwd = tempDir();
      mkdirSync(join(cwd, ".ctx"));
      const garbage = "garbage that is not a database ".repeat(10);
      writeFileSync(join(cwd, ".ctx", "index.db"), garbage);
      const result = runCli(["query", "anything"], cwd);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/index\.db: not an index database/);
      expect(readFileSync(join(cwd, ".ctx", "index.db"), "utf8")).toBe(garbage);
    });

    it("an index damaged inside (found while reading) is reported with its path and left as it is", () => {
      const root = fixtureRepo();
      expect(runCli(["index", "."], root).code).toBe(0);
      const file = join(root, ".ctx", "index.db");
      const bytes = readFileSync(file);
      // The second half: schema and settings pages open fine, and SQLite meets the
      // damage only when a command reads chunks.
      bytes.fill(0xde, Math.floor(bytes.length / 2), bytes.length);
      writeFileSync(file, bytes);
      const commands = [
        ["query", "retry", "--no-refresh"],
        ["search", "retry"],
        ["index", "."],
        ["status"],
      ];
      for (const args of commands) {
        const result = runCli(args, root);
        expect(result.code, args.join(" ")).toBe(1);
        expect(result.stderr.trim().split("\n")).toHaveLength(1);
        expect(result.stderr).toContain(`${file}: the index is corrupt (`);
        expect(result.stderr).toContain("move it aside and run `ctx index`");
      }
      expect(readFileSync(file)).toEqual(bytes);
    });

    it("a budget too small for the output", () => {
      const root = fixtureRepo();
      const result = runCli(["query", "retry", "--budget", "3"], root);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/budget 3 is too small/);
    });

    it("a broken ctx.toml", () => {
      const root = fixtureRepo();
      writeFileSync(join(root, "ctx.toml"), "[hydration]\nmax_file_bytes = -5\n");
      const result = runCli(["index"], root);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/ctx\.toml: "hydration\.max_file_bytes"/);
    });
  });
});
