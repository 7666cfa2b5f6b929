import {
  type GraphSource,
  graphFileKey,
  type KnownGraphFiles,
  type LoadedGraph,
} from "../core/graph.js";
import type { Store } from "../core/store.js";
import { CodeGraph } from "../graph/code-graph.js";
import { parseGraph, serializeGraph } from "../graph/graph-cache.js";
import { updateGraphParts } from "../graph/graph-update.js";

/** ctx_meta key of the built graph kept beside the index. */
const GRAPH_CACHE_KEY = "graph_cache";
/**
 * Past this share of files written, building from every file's rows is about
 * as quick as re-reading the written files and those that use their names.
 */
const MAX_UPDATED_SHARE = 0.2;
/** A handful of files is always quicker to update, whatever their share. */
const ALWAYS_UPDATED_FILES = 50;

/**
 * How long a build made for a watcher's batch waits before it is kept in the
 * index: serializing and writing the graph of a large project costs a few
 * hundred ms, which every saved file would otherwise pay before it is searchable.
 */
const DEFERRED_SAVE_MS = 5000;

interface BuiltGraph {
  readonly generation: string;
  readonly graph: CodeGraph;
}

/**
 * The index's code graph in memory, brought up to date only when the index's
 * graph generation moved (a file was written or removed, by this process or
 * another); concurrent loads share one build. A build is kept in the index
 * (with its whole-graph rank), so the next process reads it instead, and a
 * graph a few files behind is updated from those files (and the files that use
 * their names) rather than rebuilt from every file's rows.
 */
export class CachedGraphSource implements GraphSource {
  private cached: { generation: string; built: Promise<BuiltGraph> } | null = null;
  private unsaved: { built: BuiltGraph; timer: NodeJS.Timeout } | null = null;

  constructor(private readonly store: Store) {}

  /**
   * `known`: rows the caller just wrote, which a full build need not read back.
   * `saveLater`: keep the build in the index only after a quiet spell (a watcher's batch).
   */
  async load(known?: KnownGraphFiles, saveLater = false): Promise<LoadedGraph> {
    const generation = await this.store.graphGeneration();
    if (this.cached?.generation !== generation) {
      const previous = this.cached?.built.catch(() => null) ?? Promise.resolve(null);
      const built = previous.then((base) => this.read(generation, base, known, saveLater));
      built.catch(() => {
        if (this.cached?.built === built) this.cached = null;
      });
      this.cached = { generation, built };
    }
    return (await this.cached.built).graph;
  }

  private async read(
    generation: string,
    inMemory: BuiltGraph | null,
    known?: KnownGraphFiles,
    saveLater = false,
  ): Promise<BuiltGraph> {
    let base = inMemory;
    if (!base) {
      const stored = await this.store.getMeta(GRAPH_CACHE_KEY).catch(() => null);
      const parsed = stored ? parseGraph(stored) : null;
      if (parsed) {
        const graph = new CodeGraph(parsed.parts, parsed.centrality);
        if (parsed.generation === generation) return { generation, graph };
        base = { generation: parsed.generation, graph };
      }
    }
    const built = (base ? await this.update(base) : null) ?? (await this.build(known));
    if (this.unsaved) clearTimeout(this.unsaved.timer);
    this.unsaved = null;
    if (!saveLater) {
      await this.save(built);
      return built;
    }
    const timer = setTimeout(() => void this.saveUnsaved(), DEFERRED_SAVE_MS);
    timer.unref();
    this.unsaved = { built, timer };
    return built;
  }

  /** Keeps a build that waits to be kept now (before the index closes). */
  async saveUnsaved(): Promise<void> {
    const unsaved = this.unsaved;
    if (!unsaved) return;
    clearTimeout(unsaved.timer);
    this.unsaved = null;
    await this.save(unsaved.built);
  }

  private async save(built: BuiltGraph): Promise<void> {
    // Keeping it is only a saving: a read-only or busy index answers all the same.
    await this.store
      .setMeta(
        GRAPH_CACHE_KEY,
        serializeGraph(built.generation, built.graph, built.graph.centrality),
      )
      .catch(() => undefined);
  }

  private async build(known?: KnownGraphFiles): Promise<BuiltGraph> {
    const loaded = await this.store.loadGraph(known);
    return { generation: loaded.generation, graph: CodeGraph.fromRecords(loaded.files) };
  }

  /** `base` with the files written since its generation; null when a full build is called for. */
  private async update(base: BuiltGraph): Promise<BuiltGraph | null> {
    const limit = Math.max(ALWAYS_UPDATED_FILES, MAX_UPDATED_SHARE * base.graph.files.length);
    const since = await this.store.loadGraphSince(base.generation, limit);
    const written = since.written;
    // A graph from the future (the index file was put back from a copy) says nothing.
    if (!written || Number(since.generation) < Number(base.generation)) return null;
    // Users of a name a written file now defines more or less often than before resolve
    // it again; the uses of every other name lead to the same definitions as before.
    const names = new Set<string>();
    for (const record of written) {
      const counts = new Map<string, number>();
      for (const definition of record.definitions) {
        counts.set(definition.name, (counts.get(definition.name) ?? 0) + 1);
      }
      for (const file of base.graph.filesAt(record.path)) {
        if (file.resourceId !== record.resourceId) continue;
        for (const node of file.definitions) {
          const name = base.graph.nodes[node]?.name ?? "";
          counts.set(name, (counts.get(name) ?? 0) - 1);
        }
      }
      for (const [name, count] of counts) if (count !== 0) names.add(name);
    }
    const writtenKeys = new Set(written.map(graphFileKey));
    const reread = (await this.store.loadGraphReferencing([...names])).filter(
      (record) => !writtenKeys.has(graphFileKey(record)),
    );
    // Rows read in two steps must be of one generation.
    if ((await this.store.graphGeneration()) !== since.generation) return null;
    const updated = updateGraphParts(
      base.graph,
      since.files,
      written,
      reread,
      base.graph.hasCentrality ? base.graph.centrality : undefined,
    );
    if (!updated) return null;
    const graph = new CodeGraph(updated.parts, null, updated.rankFrom ?? undefined);
    return { generation: since.generation, graph };
  }
}
