import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";

const created: string[] = [];

afterAll(() => {
  for (const dir of created.splice(0)) removeTree(dir);
});

/**
 * Removes a folder and all in it. A child process that has just exited (Claude Code, a
 * server) may still be finishing a write inside it, which shows as ENOTEMPTY or EBUSY:
 * Node retries those, here for up to ~5 s.
 */
export function removeTree(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

/** A fresh temporary folder, removed when the test file is done. */
export function tempDir(prefix = "ctx-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Writes files (path → content) under `root`, creating folders. */
export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** Runs git in `cwd` with a fixed identity, so tests do not depend on the machine's config. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Test",
      GIT_AUTHOR_EMAIL: "test@example.com",
      GIT_COMMITTER_NAME: "Test",
      GIT_COMMITTER_EMAIL: "test@example.com",
    },
  });
}

/** A real git repository with the given files committed. */
export function gitRepo(files: Record<string, string | Buffer>): string {
  const root = tempDir("ctx-git-");
  git(root, "init", "--quiet", "--initial-branch=main");
  writeFiles(root, files);
  git(root, "add", "--all");
  git(root, "commit", "--quiet", "--message", "initial");
  return root;
}

/**
 * A fresh config home (what XDG_CONFIG_HOME names) holding the user's own
 * `ctx/config.toml`: where settings that a project file may not choose live.
 */
export function userConfigHome(toml: string): string {
  const home = tempDir("ctx-home-");
  writeFiles(home, { "ctx/config.toml": toml });
  return home;
}
