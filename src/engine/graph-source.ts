import type { GraphSource, LoadedGraph } from "../core/graph.js";
import type { Store } from "../core/store.js";
import { CodeGraph } from "../graph/code-graph.js";
import { parseGraph, serializeGraph } from "../graph/graph-cache.js";

/** ctx_meta key of the built graph kept beside the index. */
const GRAPH_CACHE_KEY = "graph_cache";

/**
 * The index's code graph in memory, rebuilt only when the index's graph
 * generation moved (a file was written or removed, by this process or
 * another); concurrent loads share one build. A build is kept in the index
 * (with its whole-graph rank), so the next process reads it instead.
 */
export class CachedGraphSource implements GraphSource {
  private cached: { generation: string; graph: Promise<LoadedGraph> } | null = null;

  constructor(private readonly store: Store) {}

  async load(): Promise<LoadedGraph> {
    const generation = await this.store.graphGeneration();
    if (this.cached?.generation !== generation) {
      const graph = this.read(generation);
      graph.catch(() => {
        if (this.cached?.graph === graph) this.cached = null;
      });
      this.cached = { generation, graph };
    }
    return this.cached.graph;
  }

  private async read(generation: string): Promise<LoadedGraph> {
    const stored = await this.store.getMeta(GRAPH_CACHE_KEY).catch(() => null);
    const parsed = stored ? parseGraph(stored, generation) : null;
    if (parsed) return new CodeGraph(parsed.parts, parsed.centrality);
    const loaded = await this.store.loadGraph();
    const graph = CodeGraph.fromRecords(loaded.files);
    // Keeping it is only a saving: a read-only or busy index answers all the same.
    await this.store
      .setMeta(GRAPH_CACHE_KEY, serializeGraph(loaded.generation, graph, graph.centrality))
      .catch(() => undefined);
    return graph;
  }
}
