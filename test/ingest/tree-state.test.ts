import { rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { readTreeState } from "../../src/ingest/hydrate/tree-state.js";
import { git, gitRepo, tempDir, writeFiles } from "../helpers/temp-dir.js";

const opened: ContextEngine[] = [];
afterEach(async () => {
  for (const engine of opened.splice(0)) await engine.close();
});

async function engineFor(root: string): Promise<ContextEngine> {
  const engine = await ContextEngine.open({
    start: root,
    cwd: root,
    env: { XDG_CONFIG_HOME: root },
  });
  opened.push(engine);
  return engine;
}

/** What a refresh did: null when it found nothing changed and read no file. */
async function refreshed(engine: ContextEngine): Promise<string | null> {
  const report = await engine.refreshIfChanged({ embed: false });
  return report
    ? `${report.added} added, ${report.changed} changed, ${report.removed} removed`
    : null;
}

const FILES = {
  "src/fares.ts": "export function fareFor(zone: number): number {\n  return zone * 2;\n}\n",
  "src/zones.ts": "export const ZONES = [1, 2, 3];\n",
};

describe("a refresh asks git first", () => {
  it("reads no file when nothing changed, and every kind of change when one did", async () => {
    const root = gitRepo(FILES);
    const engine = await engineFor(root);
    await engine.index();
    expect(await refreshed(engine)).toBeNull();

    // A tracked file edited, then edited again while it still differs from HEAD.
    writeFiles(root, { "src/fares.ts": "export const fare = 1;\n" });
    expect(await refreshed(engine)).toBe("0 added, 1 changed, 0 removed");
    expect(await refreshed(engine)).toBeNull();
    writeFiles(root, { "src/fares.ts": "export const fare = 22;\n" });
    expect(await refreshed(engine)).toBe("0 added, 1 changed, 0 removed");

    // Back to what HEAD holds: git no longer lists the file, yet it changed.
    git(root, "checkout", "--", "src/fares.ts");
    expect(await refreshed(engine)).toBe("0 added, 1 changed, 0 removed");

    // An untracked file, the same file edited, a tracked file deleted.
    writeFiles(root, { "src/new.ts": "export const fresh = 1;\n" });
    expect(await refreshed(engine)).toBe("1 added, 0 changed, 0 removed");
    writeFiles(root, { "src/new.ts": "export const fresh = 2;\n" });
    expect(await refreshed(engine)).toBe("0 added, 1 changed, 0 removed");
    rmSync(join(root, "src/zones.ts"));
    expect(await refreshed(engine)).toBe("0 added, 0 changed, 1 removed");

    // A commit moves HEAD: the history is read again, the files are unchanged.
    git(root, "add", "--all");
    git(root, "commit", "--quiet", "--message", "more");
    expect(await refreshed(engine)).toBe("0 added, 0 changed, 0 removed");
    expect(await refreshed(engine)).toBeNull();
  });

  it("compares every file again after a run that indexed only some paths", async () => {
    const root = gitRepo(FILES);
    const engine = await engineFor(root);
    await engine.index();
    writeFiles(root, { "src/fares.ts": "export const fare = 1;\n" });
    await engine.refreshPaths([join(root, "src/fares.ts")]);
    // The tree is back as it was when the whole run matched it, but the index is not.
    git(root, "checkout", "--", "src/fares.ts");
    expect(await refreshed(engine)).toBe("0 added, 1 changed, 0 removed");
  });

  it("compares every file in a folder that is not a git checkout, or has submodules", async () => {
    const root = tempDir("ctx-tree-state-folder-");
    writeFiles(root, FILES);
    const engine = await engineFor(root);
    await engine.index();
    expect(await readTreeState(root)).toBeNull();
    expect(await refreshed(engine)).toBe("0 added, 0 changed, 0 removed");
    // Nor in a checkout with submodules: git would run status in each, under its own config.
    expect(await readTreeState(gitRepo({ ...FILES, ".gitmodules": "" }))).toBeNull();
  });

  it("tells apart states that differ only in a listed file's stat, or in HEAD", async () => {
    const root = gitRepo(FILES);
    writeFiles(root, { "notes.md": "draft\n" });
    const first = await readTreeState(root);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await readTreeState(root)).toBe(first);
    utimesSync(join(root, "notes.md"), new Date(2001, 1, 1), new Date(2001, 1, 1));
    const touched = await readTreeState(root);
    expect(touched).not.toBe(first);
    git(root, "commit", "--quiet", "--allow-empty", "--message", "empty");
    expect(await readTreeState(root)).not.toBe(touched);
    // A file git ignores changes nothing.
    writeFiles(root, { ".git/info/exclude": "*.log\n" });
    const before = await readTreeState(root);
    writeFileSync(join(root, "debug.log"), "noise\n");
    expect(await readTreeState(root)).toBe(before);
    // Except ctx's own ignore file, when git is told to ignore it.
    writeFiles(root, { ".git/info/exclude": "*.log\n.ctxignore\n" });
    const excluded = await readTreeState(root);
    writeFileSync(join(root, ".ctxignore"), "notes.md\n");
    expect(await readTreeState(root)).not.toBe(excluded);
  });
});
