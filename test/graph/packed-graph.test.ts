import { copyFileSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadedGraph } from "../../src/core/graph.js";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { CachedGraphSource } from "../../src/engine/graph-source.js";
import { CodeGraph } from "../../src/graph/code-graph.js";
import { mentionSeeds } from "../../src/graph/graph-seeds.js";
import { DEFAULT_WALK, rankAround } from "../../src/graph/graph-walk.js";
import { packGraph } from "../../src/graph/pack-graph.js";
import { PackedGraph, unpackGraph } from "../../src/graph/packed-graph.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { indexTerms } from "../../src/text/code-tokenizer.js";
import { SERVICE } from "../helpers/service-fixture.js";
import { gitRepo } from "../helpers/temp-dir.js";

/** SERVICE with names that share their first words, and a folder whose name starts another's. */
const PROJECT = {
  ...SERVICE,
  "src/parse/args.ts":
    "export function parseArgs(argv: string[]): string[] {\n  return argv.slice(2);\n}\n\nexport function parseArgsStrict(argv: string[]): string[] {\n  return parseArgs(argv).filter(Boolean);\n}\n\nexport class ArgParser {\n  parseValue(text: string): number {\n    return Number(text);\n  }\n}\n",
  "src/parser/tokens.py":
    "from ..parse import helpers\n\n\ndef parse_value(text):\n    return int(text)\n\n\ndef get_value(table, key):\n    return parse_value(table[key])\n",
  "src/parser/nested.go":
    "package parser\n\nfunc ParseValue(text string) int {\n\treturn len(text)\n}\n",
};

const STAMP = { generation: "7", id: "test-save" };

/** A graph packed and read back. */
function roundTrip(graph: LoadedGraph): PackedGraph {
  const packed = packGraph(graph as Parameters<typeof packGraph>[0], STAMP);
  if (!packed) throw new Error("not packed");
  const read = unpackGraph(packed);
  if (!read) throw new Error("not read back");
  expect(read.stamp).toEqual(STAMP);
  return read.graph;
}

describe("the packed code graph", () => {
  let root: string;
  let engine: ContextEngine;
  let built: LoadedGraph;
  let packed: PackedGraph;

  beforeAll(async () => {
    root = gitRepo(PROJECT);
    engine = await ContextEngine.open({ start: root, cwd: root });
    await engine.index();
    built = await engine.loadGraph();
    packed = roundTrip(built);
  });

  afterAll(async () => {
    await engine.close();
  });

  it("reads back the nodes, files, edges and rank of the graph it was packed from", () => {
    expect(built).not.toBeInstanceOf(PackedGraph);
    expect(built.nodes.length).toBeGreaterThan(20);
    expect([...packed.nodes]).toEqual([...built.nodes]);
    expect([...packed.files]).toEqual([...built.files]);
    for (const key of ["uses", "usedBy"] as const) {
      expect([...packed[key].offsets]).toEqual([...built[key].offsets]);
      expect([...packed[key].targets]).toEqual([...built[key].targets]);
      expect([...packed[key].weights]).toEqual([...built[key].weights]);
    }
    expect([...packed.centrality]).toEqual([...built.centrality]);
  });

  it("answers every look-up as the graph in memory does", () => {
    expect([...packed.names()]).toEqual([...built.names()]);
    for (const [name] of built.names()) {
      expect(packed.definitionsNamed(name)).toEqual(built.definitionsNamed(name));
    }
    expect(packed.definitionsNamed("noSuchName")).toEqual([]);
    const paths = built.files.map((file) => file.path);
    for (const path of [...paths, "src/nope.ts", ""]) {
      expect(packed.filesAt(path)).toEqual(built.filesAt(path));
    }
    // "src/parse" is a folder and the start of "src/parser": only its own files are under it.
    for (const prefix of ["src", "src/", "src/parse", "src/parser/", "pkg", "sr", "", "zzz"]) {
      expect(packed.filesUnder(prefix)).toEqual(built.filesUnder(prefix));
    }
    expect(packed.filesUnder("src/parse").map((file) => file.path)).toEqual(["src/parse/args.ts"]);
    built.files.forEach((_, file) => {
      for (let line = 0; line <= 14; line++) {
        expect(packed.nodeAtLine(file, line)).toBe(built.nodeAtLine(file, line));
      }
    });
    const words = new Set([...built.names()].flatMap(([name]) => indexTerms(name)));
    expect(words).toContain("parse");
    for (const word of words) {
      expect(packed.compoundNamesFirst(word, words)).toEqual(built.compoundNamesFirst(word, words));
    }
    // Names are found by their first two words, in the graph's name order.
    const parseArgs = packed.compoundNamesFirst("parse", new Set(["args", "value"]));
    expect(parseArgs.map(({ parts }) => parts.join(" "))).toEqual(
      built
        .compoundNamesFirst("parse", new Set(["value", "args"]))
        .map(({ parts }) => parts.join(" ")),
    );
    expect(parseArgs.length).toBeGreaterThanOrEqual(4);
  });

  it("seeds and walks as the graph in memory does", () => {
    for (const task of [
      "parse the args strictly and parse value from text",
      "how does `handleRequest` reach splitPath",
      "get the value of a key, then parse it",
    ]) {
      const seeds = mentionSeeds(built, task);
      expect(mentionSeeds(packed, task)).toEqual(seeds);
      expect(seeds.size).toBeGreaterThan(0);
      for (const hops of [1, 2, 3]) {
        expect(rankAround(packed, seeds, { ...DEFAULT_WALK, hops })).toEqual(
          rankAround(built, seeds, { ...DEFAULT_WALK, hops }),
        );
      }
    }
  });

  it("refuses a damaged file instead of reading out of its bounds", () => {
    const bytes = packGraph(built as Parameters<typeof packGraph>[0], STAMP) as Buffer;
    expect(unpackGraph(bytes.subarray(0, bytes.length - 9))).toBeNull();
    expect(unpackGraph(bytes.subarray(0, 40))).toBeNull();
    expect(unpackGraph(Buffer.from("not a packed graph at all"))).toBeNull();
    // A node's file index far past the files: refused.
    const { start, sections } = layout(bytes);
    const damaged = Buffer.from(bytes);
    damaged.writeInt32LE(1_000_000, start + (sections["node.file"]?.[0] ?? 0));
    expect(unpackGraph(damaged)).toBeNull();
    const backwards = Buffer.from(bytes);
    backwards.writeInt32LE(-5, start + (sections["uses.offsets"]?.[0] ?? 0) + 8);
    expect(unpackGraph(backwards)).toBeNull();
    // Any other byte changed: a graph or a refusal, never an exception.
    for (let at = 0; at < bytes.length; at += 13) {
      const flipped = Buffer.from(bytes);
      flipped[at] = (flipped[at] as number) ^ 0xff;
      expect(() => unpackGraph(flipped)).not.toThrow();
    }
  });

  it("is read by the next process only while the index names it", async () => {
    // Another project's packed graph put in this one's place is not read.
    const other = gitRepo({
      "lib/other.ts": "export function otherThing(): number {\n  return 1;\n}\n",
    });
    const otherEngine = await ContextEngine.open({ start: other, cwd: other });
    try {
      await otherEngine.index();
    } finally {
      await otherEngine.close();
    }
    const pack = join(root, ".ctx/index-graph.pack");
    copyFileSync(join(other, ".ctx/index-graph.pack"), pack);
    const next = await ContextEngine.open({ start: root, cwd: root });
    try {
      const read = await next.loadGraph();
      expect(read.definitionsNamed("otherThing")).toEqual([]);
      expect([...read.nodes]).toEqual([...built.nodes]);
    } finally {
      await next.close();
    }
    // The graph built instead was packed in its place, and the next process reads that.
    expect(unpackGraph(readFileSync(pack))?.graph.definitionsNamed("parseArgs")).toHaveLength(1);
    // Readable by the user alone, as the index is.
    expect(statSync(pack).mode & 0o777).toBe(0o600);
    const again = await ContextEngine.open({ start: root, cwd: root });
    try {
      expect(await again.loadGraph()).toBeInstanceOf(PackedGraph);
    } finally {
      await again.close();
    }
    // A missing file: built again from the index's rows.
    rmSync(pack);
    const rebuilt = await ContextEngine.open({ start: root, cwd: root });
    try {
      const read = await rebuilt.loadGraph();
      expect(read).not.toBeInstanceOf(PackedGraph);
      expect([...read.nodes]).toEqual([...built.nodes]);
    } finally {
      await rebuilt.close();
    }
  });
});

describe("a packed graph behind the index", () => {
  it("is brought up to date from the files written since, as a full build would give it", async () => {
    const root = gitRepo(SERVICE);
    const engine = await ContextEngine.open({ start: root, cwd: root });
    const store = SqliteStore.open(join(root, ".ctx/index.db"), { create: false });
    try {
      await engine.index();
      let fullBuilds = 0;
      const counting: SqliteStore = Object.assign(Object.create(store), {
        graph: {
          ...store.graph,
          loadGraph: () => {
            fullBuilds++;
            return store.graph.loadGraph();
          },
        },
      });
      // A second process's view: it reads the packed file the index run kept.
      const source = new CachedGraphSource(counting, join(root, ".ctx/index-graph.pack"));
      expect(await source.load()).toBeInstanceOf(PackedGraph);
      writeFileSync(
        join(root, "src/util/paths.ts"),
        'export function segments(path: string): string[] {\n  return path.split("/");\n}\n\nexport function splitPath(path: string): string[] {\n  return segments(path);\n}\n',
      );
      await engine.index();
      const updated = await source.load();
      expect(fullBuilds).toBe(0);
      const full = CodeGraph.fromRecords((await store.graph.loadGraph()).files);
      expect([...updated.nodes]).toEqual([...full.nodes]);
      expect([...updated.files]).toEqual([...full.files]);
      expect([...updated.uses.targets]).toEqual([...full.uses.targets]);
      expect(updated.definitionsNamed("joinPath")).toEqual([]);
      expect(updated.definitionsNamed("segments")).toHaveLength(1);
    } finally {
      await store.close();
      await engine.close();
    }
  });
});

/** Where a packed file's sections start, and each section's place after that. */
function layout(bytes: Buffer): { start: number; sections: Record<string, [number, number]> } {
  const length = bytes.readUInt32LE(8);
  const header = JSON.parse(bytes.toString("utf8", 12, 12 + length)) as {
    sections: Record<string, [number, number]>;
  };
  return { start: Math.ceil((12 + length) / 8) * 8, sections: header.sections };
}
