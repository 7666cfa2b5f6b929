import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadedGraph } from "../../src/core/graph.js";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { CachedGraphSource } from "../../src/engine/graph-source.js";
import { mentionSeeds } from "../../src/graph/graph-seeds.js";
import { rankAround } from "../../src/graph/graph-walk.js";
import { PackedGraph, unpackGraph } from "../../src/graph/packed-graph.js";
import { pageRank } from "../../src/graph/page-rank.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { BreadthDepthNavigatorStrategy } from "../../src/strategies/builtins/breadth-depth-navigator.js";
import { DEFAULT_NAVIGATOR_SETTINGS } from "../../src/strategies/builtins/navigator-settings.js";
import { queryTerms } from "../../src/text/code-tokenizer.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { SERVICE } from "../helpers/service-fixture.js";
import { gitRepo } from "../helpers/temp-dir.js";

function nodeNamed(graph: LoadedGraph, name: string): number {
  const [node] = graph.definitionsNamed(name);
  if (node === undefined) throw new Error(`no definition ${name}`);
  return node;
}

function usesOf(graph: LoadedGraph, node: number): string[] {
  const out: string[] = [];
  for (let e = graph.uses.offsets[node] ?? 0; e < (graph.uses.offsets[node + 1] ?? 0); e++) {
    const target = graph.nodes[graph.uses.targets[e] ?? -1];
    if (target && target.kind !== "file") out.push(target.name);
  }
  return out.sort();
}

describe("the code graph in memory", () => {
  let engine: ContextEngine;
  let graph: LoadedGraph;
  let root: string;

  beforeAll(async () => {
    root = gitRepo(SERVICE);
    engine = await ContextEngine.open({ start: root, cwd: root });
    await engine.index();
    graph = await engine.loadGraph();
  });
  afterAll(() => engine.close());

  it("leads each use to its definition: through a barrel's re-export, relative imports, Python packages", () => {
    expect(usesOf(graph, nodeNamed(graph, "handleRequest"))).toEqual(["matchRoute", "routes"]);
    expect(usesOf(graph, nodeNamed(graph, "matchRoute"))).toEqual(["Route", "splitPath"]);
    expect(usesOf(graph, nodeNamed(graph, "parentFolder"))).toEqual(["joinPath", "splitPath"]);
    expect(usesOf(graph, nodeNamed(graph, "tokens"))).toEqual(["normalize"]);
    // Containment: a definition's node links to its file's, not to another file's definitions.
    expect(usesOf(graph, nodeNamed(graph, "mixColors"))).toEqual([]);
  });

  it("ranks what many use above what nothing uses, ranks summing to one", () => {
    const rank = graph.centrality;
    const sum = rank.reduce((total, value) => total + value, 0);
    expect(sum).toBeCloseTo(1, 6);
    const of = (name: string) => rank[nodeNamed(graph, name)] ?? 0;
    expect(of("splitPath")).toBeGreaterThan(of("joinPath"));
    expect(of("splitPath")).toBeGreaterThan(of("handleRequest"));
    expect(of("normalize")).toBeGreaterThan(of("tokens"));
  });

  it("takes the names a task writes as code for the definitions it means, dotted ones too", () => {
    const named = (task: string) =>
      [...mentionSeeds(graph, task).keys()].map((node) => graph.nodes[node]?.name).sort();
    expect(named("fix `text.normalize` and `darken()` for empty input")).toEqual([
      "darken",
      "normalize",
    ]);
    // A plain word is not a mention; a compound name is, backticks or not.
    expect(named("normalize the text before darken")).toEqual([]);
    expect(named("splitPath drops empty parts")).toEqual(["splitPath"]);
  });

  it("walks from seeds both ways within the hop limit, nearest first", () => {
    const seeds = new Map([[nodeNamed(graph, "handleRequest"), 1]]);
    const names = (hops: number) =>
      rankAround(graph, seeds, { hops, damping: 0.5, backwardScale: 0.7 })
        .map(({ node }) => graph.nodes[node])
        .filter((node) => node && node.kind !== "file")
        .map((node) => node?.name);
    expect(names(1)).toContain("matchRoute");
    expect(names(1)).not.toContain("splitPath");
    const two = names(2);
    expect(two[0]).toBe("handleRequest");
    expect(two).toContain("splitPath");
    expect(two).not.toContain("mixColors");
    // Backwards: from the helper to its callers.
    const callers = rankAround(graph, new Map([[nodeNamed(graph, "splitPath"), 1]]), {
      hops: 1,
      damping: 0.5,
      backwardScale: 0.7,
    }).map(({ node }) => graph.nodes[node]?.name);
    expect(callers).toEqual(expect.arrayContaining(["matchRoute", "parentFolder"]));
  });

  it("is reused while nothing changed and rebuilt after a change", async () => {
    expect(await engine.loadGraph()).toBe(graph);
    await engine.index();
    expect(await engine.loadGraph()).toBe(graph);
    writeFileSync(
      join(root, "src/colors.ts"),
      "export function lighten(color: number): number {\n  return color + 1;\n}\n",
    );
    await engine.index();
    const changed = await engine.loadGraph();
    expect(changed).not.toBe(graph);
    expect(changed.definitionsNamed("mixColors")).toEqual([]);
    expect(changed.definitionsNamed("lighten")).toHaveLength(1);
    // Another process reads the graph kept in the index, rank and all, not a stale one.
    expect(changed.centrality.length).toBe(changed.nodes.length);
    const other = await ContextEngine.open({ start: root, cwd: root });
    try {
      const read = await other.loadGraph();
      expect(read).toBeInstanceOf(PackedGraph);
      expect(read.nodes).toEqual(changed.nodes);
      expect(read.files).toEqual(changed.files);
      expect([...read.uses.targets]).toEqual([...changed.uses.targets]);
      expect([...read.centrality]).toEqual([...changed.centrality]);
    } finally {
      await other.close();
    }
  });

  it("is built by the index run that changed it and kept beside the index, for the next process", async () => {
    writeFileSync(
      join(root, "src/shade.ts"),
      "export function shade(): number {\n  return 2;\n}\n",
    );
    await engine.index();
    const db = new Database(join(root, ".ctx/index.db"), { readonly: true });
    try {
      const meta = (key: string) =>
        (db.prepare("SELECT value FROM ctx_meta WHERE key = ?").get(key) as { value: string })
          .value;
      const packed = unpackGraph(readFileSync(join(root, ".ctx/index-graph.pack")));
      expect(packed?.stamp.generation).toBe(String(meta("graph_generation")));
      // The index names the save it belongs to: a file left by another index is not read.
      expect(meta("graph_packed")).toBe(`${packed?.stamp.generation} ${packed?.stamp.id}`);
      expect(packed?.graph.hasCentrality).toBe(true);
      expect(packed?.graph.definitionsNamed("shade")).toHaveLength(1);
    } finally {
      db.close();
    }
  });
});

describe("pageRank", () => {
  it("returns the personalisation's node most, and keeps rank at dangling nodes", () => {
    // 0 → 1 → 2, node 2 has no out-edges.
    const rows = {
      offsets: Int32Array.from([0, 1, 2, 2]),
      targets: Int32Array.from([1, 2]),
      weights: Float64Array.from([1, 1]),
    };
    const rank = pageRank([{ edges: rows, scale: 1 }], 3, {
      damping: 0.5,
      personalization: new Map([[0, 1]]),
    });
    expect((rank[0] ?? 0) + (rank[1] ?? 0) + (rank[2] ?? 0)).toBeCloseTo(1, 6);
    expect(rank[0]).toBeGreaterThan(rank[1] ?? 0);
    expect(rank[1]).toBeGreaterThan(rank[2] ?? 0);
    const uniform = pageRank([{ edges: rows, scale: 1 }], 3, { damping: 0.85 });
    expect(uniform[2]).toBeGreaterThan(uniform[0] ?? 0);
  });
});

describe("breadth-depth-navigator over copies of one file", () => {
  it("shows one of identical copies, the one the text search ranks first, whatever the walk says", async () => {
    const format =
      "export function formatPrice(value: number): string {\n  return value.toFixed(2);\n}\n";
    const root = gitRepo({
      "src/lib/format.ts": format,
      "mirror/lib/format.ts": format,
      "src/cart.ts":
        'import { formatPrice } from "./lib/format";\n\nexport function cartTotal(prices: number[]): string {\n  return formatPrice(prices.reduce((a, b) => a + b, 0));\n}\n',
      "src/checkout.ts":
        'import { formatPrice } from "./lib/format";\n\nexport function receipt(total: number): string {\n  return "Total: " + formatPrice(total);\n}\n',
      "src/invoice.ts":
        'import { formatPrice } from "./lib/format";\n\nexport function invoiceLine(amount: number): string {\n  return formatPrice(amount);\n}\n',
    });
    const engine = await ContextEngine.open({ start: root, cwd: root });
    const store = SqliteStore.open(join(root, ".ctx/index.db"), { create: false });
    try {
      await engine.index();
      const navigator = new BreadthDepthNavigatorStrategy(o200kCounter, DEFAULT_NAVIGATOR_SETTINGS);
      const fragments = await navigator.assemble(
        { task: "formatPrice rounding of the cart total", budget: 4000 },
        { text: store.documents, graph: new CachedGraphSource(store) },
        { total: 4000, allocated: 4000 },
      );
      const copies = ["src/lib/format.ts", "mirror/lib/format.ts"];
      const shown = fragments
        .map((f) => (f.source.kind === "file" ? f.source.path : ""))
        .filter((path) => copies.includes(path));
      // One copy (the packer would drop the second), the one the text search ranks first.
      const hits = await store.documents.searchText({
        terms: queryTerms("formatPrice rounding of the cart total"),
        limit: 20,
      });
      const firstCopy = hits.map((hit) => hit.chunk.path).find((path) => copies.includes(path));
      expect(shown).toEqual([firstCopy]);
    } finally {
      await store.close();
      await engine.close();
    }
  });
});
