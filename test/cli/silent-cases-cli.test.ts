import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const LEDGER = {
  "src/ledger.ts":
    "/** Settles the ledger: the balance after every posting. */\nexport function settleLedger(postings: number[]): number {\n  let balance = 0;\n  for (const amount of postings) balance += amount;\n  return balance;\n}\n",
};

function project(files: Record<string, string> = LEDGER): string {
  const root = tempDir();
  writeFiles(root, files);
  return root;
}

/** The one line ctx printed on stderr, without its prefix. */
function oneLine(stderr: string): string {
  const lines = stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  return lines[0] ?? "";
}

describe("a query that finds nothing says why, in one line", () => {
  const root = project();
  beforeAll(() => {
    expect(runCli(["index"], root).code).toBe(0);
  });

  it("an empty task is bad usage", () => {
    const result = runCli(["query", "  "], root);
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toMatch(/^ctx: the task is empty/);
  });

  it("a task with no words to search for cannot be answered", () => {
    const result = runCli(["query", "!!! ???"], root);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toMatch(/^ctx: the task has no words to search for/);
  });

  it("a --path that names no indexed file cannot be answered, and shows how paths look", () => {
    const result = runCli(["query", "settle the ledger", "--path", "nosuchdir/"], root);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(
      "ctx: --path nosuchdir/ matches no indexed file: give a folder or file relative to the project root, as ctx status and answers show paths (e.g. src/)",
    );
    expect(runCli(["query", "settle the ledger", "--path", "src"], root).code).toBe(0);
  });

  it("a budget too small for what was found says what the fragments need", () => {
    const result = runCli(["query", "settle the ledger", "--budget", "20"], root);
    expect(result.code).toBe(1);
    const line = oneLine(result.stderr);
    expect(line).toMatch(/^ctx: budget 20 is too small for any of the \d+ fragments? found/);
    const suggested = Number(/: --budget (\d+) fits one$/.exec(line)?.[1]);
    expect(suggested).toBeGreaterThan(20);
    // What it suggests is enough: that budget gets a fragment.
    const enough = runCli(
      ["query", "settle the ledger", "--budget", String(suggested), "--json"],
      root,
    );
    expect(enough.code, enough.stderr).toBe(0);
    expect(JSON.parse(enough.stdout).fragments.length).toBeGreaterThan(0);
  });

  it("no file matching the task's words is an answer: exit 0, with a note naming the words", () => {
    const result = runCli(["query", "zebra quantum"], root);
    expect(result.code).toBe(0);
    expect(oneLine(result.stderr)).toBe(
      "ctx: no indexed file matches the task's words (zebra, quantum)",
    );
  });

  it("a Chinese or Japanese task gets a hint about how it is matched", () => {
    const result = runCli(["query", "台帳を精算する"], root);
    expect(result.code).toBe(0);
    expect(oneLine(result.stderr)).toMatch(
      /Chinese, Japanese, Korean or Thai is matched only as whole runs/,
    );
  });
});

describe("folders with nothing to index", () => {
  it("an empty folder: the index run says so, and a query cannot be answered", () => {
    const root = project({});
    const indexed = runCli(["index"], root);
    expect(indexed.code).toBe(0);
    expect(oneLine(indexed.stderr)).toMatch(
      /^ctx: no file under .* is one ctx reads \(the folder holds no files\)/,
    );
    const query = runCli(["query", "anything at all"], root);
    expect(query.code).toBe(1);
    expect(query.stderr).toMatch(/^ctx: the index holds no files/m);
  });

  it("a folder of binary files names what it skipped", () => {
    const root = project();
    writeFileSync(join(root, "src", "ledger.ts"), Buffer.from([0, 1, 2, 3, 0, 255, 0, 7]));
    const indexed = runCli(["index"], root);
    expect(indexed.code).toBe(0);
    expect(oneLine(indexed.stderr)).toMatch(/is one ctx reads \(skipped: binary 1\)/);
  });
});

describe("ctx index --force", () => {
  it("reads a file whose content changed behind an unchanged size and mtime", () => {
    const root = project();
    expect(runCli(["index"], root).code).toBe(0);
    const path = join(root, "src", "ledger.ts");
    const stamp = new Date("2026-01-02T03:04:05Z");
    utimesSync(path, stamp, stamp);
    expect(runCli(["index"], root).code).toBe(0);
    // Same length, new name, old mtime: a plain run trusts size and mtime.
    writeFileSync(path, LEDGER["src/ledger.ts"].replace("settleLedger", "closeLedger1"));
    utimesSync(path, stamp, stamp);
    runCli(["index"], root);
    expect(runCli(["symbols", "closeLedger1"], root).code).toBe(1);
    const forced = runCli(["index", "--force"], root);
    expect(forced.code, forced.stderr).toBe(0);
    expect(runCli(["symbols", "closeLedger1"], root).code).toBe(0);
  });
});
