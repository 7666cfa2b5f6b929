import type { GraphBackend, GraphSource, LoadedGraph } from "../core/graph.js";
import { CodeGraph } from "../graph/code-graph.js";

/**
 * The index's code graph in memory, built on first use and again only when the
 * index's graph generation moved (a file was written or removed, by this
 * process or another); concurrent loads share one build.
 */
export class CachedGraphSource implements GraphSource {
  private cached: { generation: string; graph: Promise<LoadedGraph> } | null = null;

  constructor(private readonly backend: GraphBackend) {}

  async load(): Promise<LoadedGraph> {
    const generation = await this.backend.graphGeneration();
    if (this.cached?.generation !== generation) {
      const graph = this.backend.loadGraph().then((records) => new CodeGraph(records));
      graph.catch(() => {
        if (this.cached?.graph === graph) this.cached = null;
      });
      this.cached = { generation, graph };
    }
    return this.cached.graph;
  }
}
