import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FolderEvent, FolderEvents } from "../../src/watch/folder-events.js";
import { tempDir } from "../helpers/temp-dir.js";

const open: FolderEvents[] = [];
afterEach(() => {
  for (const events of open.splice(0)) events.close();
});

/** Watches `root`; `seen` holds every event as `event path-relative-to-root`. */
function watchRoot(root: string, ignored: (path: string) => boolean = () => false) {
  const seen: string[] = [];
  const errors: unknown[] = [];
  const events = FolderEvents.start([root], {
    ignored,
    onEvent: (event: FolderEvent, path: string) =>
      seen.push(`${event} ${path.slice(root.length + 1)}`),
    onError: (error) => errors.push(error),
  });
  open.push(events);
  return { seen, errors };
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for file events");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("FolderEvents (one system watch per folder)", () => {
  it("reports files written, created and deleted in any folder below the root", async () => {
    const root = tempDir();
    mkdirSync(join(root, "src/deep"), { recursive: true });
    writeFileSync(join(root, "src/deep/a.ts"), "a\n");
    const { seen } = watchRoot(root);
    writeFileSync(join(root, "src/deep/a.ts"), "changed\n");
    writeFileSync(join(root, "src/b.ts"), "b\n");
    await until(() => seen.includes("change src/deep/a.ts") && seen.includes("add src/b.ts"));
    rmSync(join(root, "src/b.ts"));
    await until(() => seen.includes("unlink src/b.ts"));
  });

  it("walks a folder that appears (its files reported) and reports one that goes once", async () => {
    const root = tempDir();
    const { seen } = watchRoot(root);
    // Made elsewhere, then moved in whole: its files were never seen being written.
    const outside = tempDir();
    mkdirSync(join(outside, "pkg/inner"), { recursive: true });
    writeFileSync(join(outside, "pkg/inner/x.ts"), "x\n");
    renameSync(join(outside, "pkg"), join(root, "pkg"));
    await until(() => seen.includes("addDir pkg") && seen.includes("add pkg/inner/x.ts"));
    // The new folder is watched too.
    writeFileSync(join(root, "pkg/inner/y.ts"), "y\n");
    await until(() => seen.some((line) => line.endsWith("pkg/inner/y.ts")));
    rmSync(join(root, "pkg"), { recursive: true });
    await until(() => seen.includes("unlinkDir pkg"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen.filter((line) => line === "unlinkDir pkg")).toHaveLength(1);
  });

  it("does not watch or report what the filter ignores", async () => {
    const root = tempDir();
    mkdirSync(join(root, "node_modules/dep"), { recursive: true });
    const { seen } = watchRoot(root, (path) => path.includes("node_modules"));
    writeFileSync(join(root, "node_modules/dep/index.js"), "x\n");
    writeFileSync(join(root, "kept.ts"), "k\n");
    await until(() => seen.includes("add kept.ts"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen.filter((line) => line.includes("node_modules"))).toEqual([]);
  });

  it("reports the root itself when it is deleted", async () => {
    const parent = tempDir();
    const root = join(parent, "project");
    mkdirSync(join(root, "src"), { recursive: true });
    const seen: string[] = [];
    open.push(
      FolderEvents.start([root], {
        ignored: () => false,
        onEvent: (event, path) => seen.push(`${event} ${path}`),
        onError: () => undefined,
      }),
    );
    rmSync(root, { recursive: true });
    await until(() => seen.includes(`unlinkDir ${root}`));
  });
});
