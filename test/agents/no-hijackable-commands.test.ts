import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { gitRepo } from "../helpers/temp-dir.js";

const REPO = join(import.meta.dirname, "..", "..");

/**
 * `npx ctx` where ctx is not installed fetches the registry's unrelated `ctx`
 * package and runs it. Matched: the command on a line, and npx with `ctx` as
 * its first argument in an args list.
 */
const HIJACKABLE = [/\bnpx\s+(?:--?[\w-]+(?:=\S+)?\s+)*ctx\b/, /"npx",\s*"args":\s*\[\s*"ctx"/];

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(folder, name));
}

function expectNoHijackableCommand(where: string, text: string): void {
  for (const pattern of HIJACKABLE) {
    const line = text.split("\n").find((candidate) => pattern.test(candidate));
    expect(line, `${where} runs ctx through a bare npx`).toBeUndefined();
  }
}

describe("commands a user copies or an agent runs", () => {
  it("no doc tells anyone to run ctx through a bare npx", () => {
    const docs = [join(REPO, "README.md"), ...markdownFiles(join(REPO, "docs"))];
    expect(docs.length).toBeGreaterThan(3);
    for (const file of docs) expectNoHijackableCommand(file, readFileSync(file, "utf8"));
  });

  it("no config ctx init writes does, with or without ctx installed in the project", () => {
    const bare = gitRepo({ "README.md": "# P\n" });
    const installed = gitRepo({ "README.md": "# P\n", "node_modules/.bin/context-engine": "" });
    for (const root of [bare, installed]) {
      for (const agent of ["claude-code", "cursor", "codex"]) {
        const args = ["init", agent, "--dry-run", ...(agent === "claude-code" ? ["--hook"] : [])];
        const result = runCli(args, root);
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toContain("serve");
        expectNoHijackableCommand(`ctx init ${agent}`, result.stdout);
      }
    }
    // The project's own install is named by its unambiguous bin, never fetched.
    expect(runCli(["init", "codex", "--dry-run"], installed).stdout).toContain(
      'args = ["--no-install", "context-engine", "serve"]',
    );
  });
});
