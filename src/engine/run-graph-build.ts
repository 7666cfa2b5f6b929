import type { LoadedGraph } from "../core/graph.js";
import type { DocumentToStore } from "../core/store.js";
import type { FileCounts } from "../ingest/index-run.js";
import type { CachedGraphSource } from "./graph-source.js";
import { WrittenGraphs } from "./written-graphs.js";

/**
 * An index run's code graph: built from the rows the run wrote as soon as its
 * files are written, beside the compaction thread (and the history read), and
 * kept in the index once the run is over, so the next map or query in any
 * process finds it ready. A watcher's batch keeps it in the index later, once
 * changes settle.
 */
export class RunGraphBuild {
  private readonly written = new WrittenGraphs();
  private built: Promise<LoadedGraph> | null = null;

  constructor(
    private readonly graph: CachedGraphSource,
    /** A dry run or a stopped one builds nothing. */
    private readonly skip: () => boolean,
  ) {}

  /** The index run's hooks: each batch written, then the end of the writes. */
  readonly hooks = {
    onWritten: (documents: readonly DocumentToStore[]) => this.written.add(documents),
    onFilesWritten: (counts: FileCounts) => {
      if (counts.added + counts.changed + counts.removed === 0 || this.skip()) return;
      this.built = this.graph.load(this.written.known(), true).then((graph) => {
        // The whole-graph rank too, which keeping the graph writes beside it.
        graph.centrality;
        return graph;
      });
      // Awaited in `finish`; a run that fails before then reports its own error.
      this.built.catch(() => undefined);
    },
  };

  /** Waits for the build, if the run started one, and keeps it in the index now unless `keepLater`. */
  async finish(keepLater: boolean): Promise<void> {
    if (!this.built) return;
    await this.built;
    if (!keepLater) await this.graph.saveUnsaved();
  }
}
