import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Repo, wordedHistory } from "../helpers/git-history.js";
import { canMountPrivately, inMountNamespace } from "../helpers/mount-namespace.js";
import { type CliResult, runCli } from "../helpers/run-cli.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

/** The fragments of a `--format json` answer, as path:lines and score. */
function answer(result: CliResult): string[] {
  expect(result.code, result.stderr).toBe(0);
  const parsed = JSON.parse(result.stdout) as {
    fragments: { path: string; startLine: number; endLine: number; score: number }[];
  };
  return parsed.fragments.map((f) => `${f.path}:${f.startLine}-${f.endLine} ${f.score}`);
}

/** stderr's lines: each fault is to be told in one. */
function lines(result: CliResult): string[] {
  return result.stderr.trim().split("\n").filter(Boolean);
}

/** A checkout with a few files and a history of `commits` worded commits. */
function project(commits: number): Repo {
  const repo = new Repo();
  repo.importCommits(wordedHistory(commits));
  return repo;
}

/** The user's own config (outside the project, so changing it changes no indexed file). */
function userConfig(home: string, toml: string): void {
  writeFiles(home, { "ctx/config.toml": toml });
}

describe("a full disk", () => {
  it.runIf(canMountPrivately)(
    "is told in one line, queries answer from what is stored, and the next run ends as a fresh index",
    () => {
      const repo = project(1200);
      const home = tempDir("ctx-home-");
      const env = { XDG_CONFIG_HOME: home };
      const task = "refund the basket label";
      userConfig(home, "[history]\nmax_commits = 20\n");
      const run = inMountNamespace(
        `
mount -t tmpfs -o size=6m tmpfs "$SCRATCH"
DB="$SCRATCH/index.db"
ctx first index --db "$DB"
# Not a byte left: SQLite cannot even make its journal files.
dd if=/dev/zero of="$SCRATCH/filler" bs=64k 2>/dev/null || true
ctx no-room-query query --no-refresh --format json --db "$DB" "${task}"
ctx no-room-refresh query --format json --db "$DB" "${task}"
# A little room, and a history too long for it.
truncate -s -192K "$SCRATCH/filler"
printf '[history]\\nmax_commits = 5000\\n' >"$XDG_CONFIG_HOME/ctx/config.toml"
ctx full-index index --db "$DB"
ctx full-query query --format json --db "$DB" "${task}"
rm "$SCRATCH/filler"
ctx resumed-index index --db "$DB"
ctx resumed-query query --no-refresh --format json --db "$DB" "${task}"
`,
        repo.root,
        env,
      );
      expect(run.step("first").code, run.step("first").stderr).toBe(0);
      const stored = answer(run.step("no-room-query"));
      expect(stored.length).toBeGreaterThan(0);
      for (const name of ["no-room-query", "no-room-refresh"]) {
        expect(lines(run.step(name)), name).toEqual([
          expect.stringMatching(
            /answering from the index as it is, opened read-only: the disk is full$/,
          ),
        ]);
        expect(answer(run.step(name)), name).toEqual(stored);
      }

      const full = run.step("full-index");
      expect(full.code).toBe(1);
      // One line, no stack from the history's git processes stopped on the way.
      expect(lines(full)).toEqual([
        expect.stringContaining(
          "index.db: cannot write the index: the disk is full; free some space",
        ),
      ]);
      const query = run.step("full-query");
      expect(lines(query)).toEqual([
        expect.stringMatching(
          /^ctx: not refreshed, answering from the index as it is: .*the disk is full/,
        ),
      ]);
      expect(answer(query).length).toBeGreaterThan(0);

      expect(run.step("resumed-index").code, run.step("resumed-index").stderr).toBe(0);
      const fresh = join(tempDir("ctx-fresh-"), "index.db");
      expect(runCli(["index", "--db", fresh], repo.root, env).code).toBe(0);
      const resumed = run.step("resumed-query");
      expect(lines(resumed)).toEqual([]);
      expect(answer(resumed)).toEqual(
        answer(
          runCli(
            ["query", "--no-refresh", "--format", "json", "--db", fresh, task],
            repo.root,
            env,
          ),
        ),
      );
    },
    240_000,
  );
});

describe("a read-only file system", () => {
  it.runIf(canMountPrivately)(
    "opens the index read-only, says so in one line, answers queries, and refuses to index in one line",
    () => {
      const repo = project(30);
      const env = { XDG_CONFIG_HOME: tempDir("ctx-home-") };
      const task = "refund the basket label";
      expect(runCli(["index"], repo.root, env).code).toBe(0);
      const stored = answer(
        runCli(["query", "--no-refresh", "--format", "json", task], repo.root, env),
      );
      const run = inMountNamespace(
        `
mount --bind "$PWD" "$PWD"
mount -o remount,ro,bind "$PWD"
ctx query query --format json "${task}"
ctx no-refresh query --no-refresh --format json "${task}"
ctx search search refund
ctx index index
ctx watch watch --no-refresh
# Stopped by SIGINT after a few seconds: what matters is what it said on the way.
timeout -s INT 6 node "$CLI" serve --http 127.0.0.1:0 >/dev/null 2>"$RESULTS/serve.err" || true
`,
        repo.root,
        env,
      );
      for (const name of ["query", "no-refresh", "search"]) {
        expect(lines(run.step(name)), name).toEqual([
          expect.stringMatching(
            /index\.db: answering from the index as it is, opened read-only: it lies on a read-only file system$/,
          ),
        ]);
      }
      expect(answer(run.step("query"))).toEqual(stored);
      expect(answer(run.step("no-refresh"))).toEqual(stored);
      expect(run.step("search").stdout).toContain("refund");
      const index = run.step("index");
      expect(index.code).toBe(1);
      expect(lines(index)).toEqual([
        expect.stringContaining(
          "index.db: cannot write the index: it lies on a read-only file system; make that file system writable",
        ),
      ]);
      const watch = run.step("watch");
      expect(watch.code).toBe(1);
      expect(lines(watch)).toEqual([
        expect.stringMatching(
          /index\.db: cannot watch: the index was opened read-only: it lies on a read-only file system$/,
        ),
      ]);
      // Served as it is: no refresh or watcher failing on every change.
      const served = readFileSync(join(run.results, "serve.err"), "utf8").trim().split("\n");
      expect(served).toEqual([
        expect.stringMatching(
          /index\.db: serving the index as it is, not refreshed or watched: opened read-only: it lies on a read-only file system$/,
        ),
        expect.stringMatching(/^ctx: serving .* over MCP at http:\/\/127\.0\.0\.1:\d+/),
      ]);
      // Writable again (outside the namespace it always was): the next run goes on.
      writeFileSync(join(repo.root, "src", "more.ts"), "export const more = 1;\n");
      const next = runCli(["index"], repo.root, env);
      expect(next.code, next.stderr).toBe(0);
      expect(next.stdout).toContain("1 added");
    },
    120_000,
  );
});

describe("a damaged .git/index", () => {
  it("is told in one line; the files are read as a folder's and the history still comes from the commits", () => {
    const repo = project(30);
    expect(runCli(["index"], repo.root).code).toBe(0);
    writeFileSync(join(repo.root, ".git", "index"), "not git's index at all\n".repeat(10));
    writeFiles(repo.root, {
      "src/rebate.ts": "export function rebateCoupon() { return 'coupon'; }\n",
    });
    const index = runCli(["index"], repo.root);
    expect(index.code, index.stderr).toBe(0);
    expect(lines(index)).toEqual([
      expect.stringMatching(
        /^ctx: .*: git cannot list this checkout's files \(fatal: .*index file.*\): read as a plain folder \(\.gitignore honoured\), its history still read; `rm \.git\/index && git reset` rebuilds a damaged \.git\/index$/,
      ),
    ]);
    expect(index.stdout).toMatch(/\(git\): \d+ files — 1 added, 0 changed, 0 removed/);
    expect(index.stdout).toContain("30 commits stored");
    const query = runCli(["query", "--no-refresh", "--format", "json", "rebate coupon"], repo.root);
    expect(answer(query)[0]).toMatch(/^src\/rebate\.ts:/);

    rmSync(join(repo.root, ".git", "index"));
    repo.git("reset", "--quiet");
    const repaired = runCli(["index"], repo.root);
    expect(repaired.code).toBe(0);
    expect(lines(repaired)).toEqual([]);
  }, 60_000);
});

describe("a flipped byte in a chunk's stored text", () => {
  it("is reported in one line and left out of answers, and the next index run reads the file again", () => {
    const root = tempDir("ctx-flip-");
    const text =
      'export function refundVoucher(basket: string) {\n  return "refund the voucher of " + basket;\n}\n';
    writeFiles(root, {
      "src/refund.ts": text,
      "src/ship.ts": "export function shipLabel() {\n  return 'label';\n}\n",
    });
    expect(runCli(["index", "."], root).code).toBe(0);
    const file = join(root, ".ctx", "index.db");
    const bytes = readFileSync(file);
    const at = bytes.indexOf("refund the voucher of");
    expect(at).toBeGreaterThan(0);
    expect(bytes.indexOf("refund the voucher of", at + 1)).toBe(-1);
    bytes[at + 7] = (bytes[at + 7] as number) ^ 0x01; // "the" → "uhe"
    writeFileSync(file, bytes);

    const query = runCli(["query", "--no-refresh", "--format", "json", "refund voucher"], root);
    expect(lines(query)).toEqual([
      expect.stringContaining(
        "index.db: the stored text of src/refund.ts:1-3 does not match its checksum (the index file is damaged): left out of answers",
      ),
      // With its one match left out, the answer is empty, and says so.
      "ctx: no indexed file matches the task's words (refund, voucher)",
    ]);
    expect(answer(query).filter((line) => line.startsWith("src/refund.ts"))).toEqual([]);
    expect(query.stdout).not.toContain("uhe voucher");
    const search = runCli(["search", "--no-refresh", "refund"], root);
    expect(lines(search)).toEqual([expect.stringContaining("does not match its checksum")]);
    expect(search.stdout).not.toContain("uhe voucher");

    const index = runCli(["index"], root);
    expect(index.stdout).toContain("1 changed");
    const healed = runCli(["query", "--no-refresh", "--format", "json", "refund voucher"], root);
    expect(lines(healed)).toEqual([]);
    expect(healed.stdout).toContain("refund the voucher of");
  }, 60_000);
});
