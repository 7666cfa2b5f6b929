import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadedGraph } from "../../src/core/graph.js";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { CachedGraphSource } from "../../src/engine/graph-source.js";
import { CodeGraph } from "../../src/graph/code-graph.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { SERVICE } from "../helpers/service-fixture.js";
import { gitRepo } from "../helpers/temp-dir.js";

/** What a graph is, compared as plain data. */
function shape(graph: LoadedGraph & { reexports?: unknown }) {
  return {
    nodes: graph.nodes,
    files: graph.files,
    offsets: [...graph.uses.offsets],
    targets: [...graph.uses.targets],
    weights: [...graph.uses.weights],
    reexports: graph.reexports,
  };
}

describe("the code graph after files change", () => {
  let engine: ContextEngine;
  let store: SqliteStore;
  let root: string;
  /** A second process's view of the index: a source of its own over the same file. */
  let source: CachedGraphSource;
  let fullBuilds = 0;

  beforeAll(async () => {
    root = gitRepo(SERVICE);
    engine = await ContextEngine.open({ start: root, cwd: root });
    await engine.index();
    store = SqliteStore.open(join(root, ".ctx/index.db"), { create: false });
    const counting: SqliteStore = Object.assign(Object.create(store), {
      graph: {
        ...store.graph,
        loadGraph: () => {
          fullBuilds++;
          return store.graph.loadGraph();
        },
      },
    });
    source = new CachedGraphSource(counting);
  });
  afterAll(async () => {
    await store.close();
    await engine.close();
  });

  const fullBuild = async () => CodeGraph.fromRecords((await store.graph.loadGraph()).files);

  async function change(files: Record<string, string | null>): Promise<void> {
    for (const [path, text] of Object.entries(files)) {
      if (text === null) rmSync(join(root, path));
      else writeFileSync(join(root, path), text);
    }
    await engine.index();
  }

  it("builds at the end of an index run, from the rows it wrote, the graph every stored row gives", async () => {
    expect(shape(await engine.loadGraph())).toEqual(shape(await fullBuild()));
  });

  it("updates from the written files alone and equals a graph built from every file", async () => {
    const before = await source.load();
    const builds = fullBuilds;
    // A renamed function: its callers in files that did not change lead to the new name.
    await change({
      "src/util/paths.ts":
        'export function segments(path: string): string[] {\n  return path.split("/").filter(Boolean);\n}\n\nexport function joinPath(parts: string[]): string {\n  return parts.join("/");\n}\n\nexport function splitPath(path: string): string[] {\n  return segments(path);\n}\n',
    });
    const renamed = await source.load();
    expect(renamed).not.toBe(before);
    expect(shape(renamed)).toEqual(shape(await fullBuild()));
    // A name that goes: the unchanged file that used it loses the edge.
    await change({
      "src/util/paths.ts":
        'export function segments(path: string): string[] {\n  return path.split("/").filter(Boolean);\n}\n\nexport function splitPath(path: string): string[] {\n  return segments(path);\n}\n',
    });
    // A file early in the order gains a definition: every later node moves up one.
    await change({
      "pkg/core.py":
        "from .helpers import normalize\n\n\ndef tokens(text):\n    return normalize(text).split()\n\n\ndef count(text):\n    return len(tokens(text))\n",
    });
    const gone = await source.load();
    expect(shape(gone)).toEqual(shape(await fullBuild()));
    expect(gone.definitionsNamed("joinPath")).toEqual([]);
    // A name no file defined becomes defined: the unchanged file that used it now leads there
    // (a call made on an object: TypeScript reaches no other file's name by a bare call).
    await change({
      "src/colors.ts":
        "export function mixColors(a: number, b: number): number {\n  return shades.lighten((a + b) / 2);\n}\n\nexport function darken(color: number): number {\n  return mixColors(color, 0);\n}\n",
    });
    await change({
      "src/light.ts": "export function lighten(color: number): number {\n  return color + 1;\n}\n",
    });
    await change({
      "src/light.ts":
        "export function lighten(color: number): number {\n  return brighter(color);\n}\n\nfunction brighter(color: number): number {\n  return color * 2;\n}\n",
    });
    const updated = await source.load();
    expect(shape(updated)).toEqual(shape(await fullBuild()));
    const mix = updated.definitionsNamed("mixColors")[0] ?? -1;
    const lighten = updated.definitionsNamed("lighten")[0] ?? -1;
    const { offsets, targets } = updated.uses;
    expect(targets.slice(offsets[mix], offsets[mix + 1])).toContain(lighten);
    // Only adding src/light.ts (a file that came) called for a build from every file's rows.
    expect(fullBuilds - builds).toBe(1);
  });

  it("rebuilds when a file goes, or a written file's re-exports change", async () => {
    await source.load();
    const builds = fullBuilds;
    await change({ "src/light.ts": null });
    expect(shape(await source.load())).toEqual(shape(await fullBuild()));
    await change({ "src/index.ts": 'export { matchRoute } from "./http/router";\n' });
    expect(shape(await source.load())).toEqual(shape(await fullBuild()));
    expect(fullBuilds - builds).toBe(2);
  });
});
