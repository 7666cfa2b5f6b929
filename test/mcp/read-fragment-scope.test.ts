import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { git, tempDir, writeFiles } from "../helpers/temp-dir.js";

const TOKEN = "ghp_FAKE0123456789abcdefTOKEN";

/**
 * Files the index never reads, beside ordinary sources: a gitignored `.env`,
 * the git folder's config, a dependency, a `.ctxignore`d file, binary files
 * (by extension and by content), a file over the size limit.
 */
function project(mode: "git" | "folder"): string {
  const root = tempDir(`ctx-read-${mode}-`);
  if (mode === "git") git(root, "init", "--quiet", "--initial-branch=main");
  writeFiles(root, {
    "src/app.ts": "export function servedSource(): number {\n  return 1;\n}\n",
    ".gitignore": ".env\nsecrets/\n",
    ".ctxignore": "private/\n",
    ".env": `GITHUB_TOKEN=${TOKEN}\n`,
    "secrets/key.txt": `${TOKEN}\n`,
    "node_modules/dep/index.js": `module.exports = "${TOKEN}";\n`,
    "private/notes.md": `${TOKEN}\n`,
    "assets/logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]),
    "data/blob": Buffer.concat([Buffer.from(`${TOKEN}\n`), Buffer.alloc(64, 0)]),
    "big.txt": `${TOKEN}\n${"x".repeat(300 * 1024)}\n`,
  });
  if (mode === "git") {
    git(root, "config", "remote.origin.url", `https://x:${TOKEN}@example.com/repo.git`);
    git(root, "add", "src", ".gitignore", ".ctxignore");
    git(root, "commit", "--quiet", "--message", "initial");
  } else {
    // A folder that only looks like a checkout's git folder is still never read.
    mkdirSync(join(root, ".git"));
    writeFileSync(join(root, ".git", "config"), `[remote]\n\turl = https://x:${TOKEN}@e/r\n`);
  }
  return root;
}

describe.each(["git", "folder"] as const)("read_fragment in %s mode", (mode) => {
  let engine: ContextEngine;

  beforeAll(async () => {
    const root = project(mode);
    engine = await ContextEngine.open({ start: root, cwd: root, env: { XDG_CONFIG_HOME: root } });
    await engine.index([root]);
  });

  afterAll(async () => {
    await engine.close();
  });

  it("still serves the project's sources", async () => {
    const read = await engine.readFragment({ path: "src/app.ts", startLine: 1, endLine: 1 });
    expect(read.text).toBe("export function servedSource(): number {");
  });

  it("refuses .env as a secret file, in one line, with none of its content", async () => {
    const read = engine.readFragment({ path: ".env" });
    await expect(read).rejects.toThrow(
      /^\.env is not served: it holds secrets \(file name\);[^\n]*$/,
    );
    await expect(read).rejects.not.toThrow(TOKEN);
  });

  it.each([
    ["secrets/key.txt", /git ignores it|a \.gitignore ignores it/],
    [".git/config", /inside \.git\/, a folder the index skips/],
    ["node_modules/dep/index.js", /inside node_modules\/, a folder the index skips/],
    ["private/notes.md", /\.ctxignore ignores it/],
    ["assets/logo.png", /binary/],
    ["data/blob", /binary/],
    ["big.txt", /size limit/],
  ])("refuses %s, saying why in one line, with none of its content", async (path, why) => {
    const read = engine.readFragment({ path });
    await expect(read).rejects.toThrow(why);
    await expect(read).rejects.toThrow(/^refused "[^"\n]+": the index does not read it[^\n]*$/);
    await expect(read).rejects.not.toThrow(TOKEN);
  });
});
