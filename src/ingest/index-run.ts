import type { DocumentToStore } from "../core/store.js";

export type IndexProgress =
  | { readonly phase: "discover"; readonly root: string }
  | {
      readonly phase: "index";
      readonly root: string;
      readonly done: number;
      readonly total: number;
    };

/** Files a run added, changed and removed. */
export interface FileCounts {
  readonly added: number;
  readonly changed: number;
  readonly removed: number;
}

/**
 * What every layer of one index run shares, set where the run starts (the
 * engine) and passed down whole: each layer reads what it needs. `P` is the
 * progress the run reports (the engine's runs also report history, contexts and
 * embedding; the file indexing only its own).
 */
export interface IndexRun<P = IndexProgress> {
  /** Read and chunk every file again, whatever its size and mtime say (`ctx index --force`). */
  readonly force?: boolean;
  /**
   * The roots are those the index already covers, not ones a user named: a
   * missing one is reported (and its documents kept) instead of failing the run.
   */
  readonly recordedRoots?: boolean;
  /**
   * Only these paths (relative, files or folders) of each root, keyed by the root
   * as given: a watcher's changes, indexed without listing every file (and no
   * history read). Roots without an entry are left alone.
   */
  readonly scope?: ReadonlyMap<string, readonly string[]>;
  /** Stops the run between files; what was prepared before is written first. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: P) => void;
  /** Told of each batch of documents once it is written. */
  readonly onWritten?: (documents: readonly DocumentToStore[]) => void;
  /**
   * Told once every root's files are written, before the store is compacted:
   * work that needs the written files but not the compaction (the code graph's
   * build) can run while another thread compacts.
   */
  readonly onFilesWritten?: (counts: FileCounts) => void;
}
