import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { git, gitRepo } from "../helpers/temp-dir.js";

describe("ctx index and ctx status with git history", () => {
  it("reads new commits on each run and shows what history is stored", () => {
    const root = gitRepo({ "src/app.ts": "export const app = 1;\n" });
    const first = runCli(["index", "."], root);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^History: 1 commit added in \d+\.\d s; 1 commit stored, \d{4}-/m);

    writeFileSync(join(root, "src", "app.ts"), "export const app = 2;\n");
    git(root, "commit", "--quiet", "--all", "--message", "bump app");
    const second = runCli(["index", "--json"], root);
    const report = JSON.parse(second.stdout) as { history: Record<string, unknown>[] };
    expect(report.history).toHaveLength(1);
    expect(report.history[0]).toMatchObject({ added: 1, removed: 0, commits: 2, error: null });

    const status = runCli(["status"], root);
    expect(status.stdout).toMatch(
      /^History: 2 commits, 2 file changes · diffs of 2 commits read for words to code \(used from 500 on\)$/m,
    );
    expect(status.stdout).toMatch(/^ {4}history: 2 commits, \d{4}-\d{2}-\d{2} … \d{4}-/m);
  });

  it("leaves history alone when [history] enabled = false", () => {
    const root = gitRepo({ "src/app.ts": "export const app = 1;\n" });
    writeFileSync(join(root, "ctx.toml"), "[history]\nenabled = false\n");
    const result = runCli(["index", "."], root);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(/History:/);
    expect(runCli(["status"], root).stdout).toMatch(/history: not read yet/);
  });

  it("names a malformed [history] setting", () => {
    const root = gitRepo({ "src/app.ts": "export const app = 1;\n" });
    writeFileSync(join(root, "ctx.toml"), '[history]\nsince = "last tuesday-ish"\n');
    const result = runCli(["index", "."], root);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/history.*since|since.*history/);
  });
});
