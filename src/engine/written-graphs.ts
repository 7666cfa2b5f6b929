import { type GraphFileRecord, graphFileKey, type KnownGraphFiles } from "../core/graph.js";
import type { DocumentToStore } from "../core/store.js";

/** Past this many files, holding every written file's rows costs more memory than not re-reading them saves. */
const MAX_FILES = 50_000;

/**
 * The graph rows an index run wrote, kept so that building the graph at the
 * end of the run need not read them back (on three.js, reading every file's
 * rows was 0.7 s of a 1.6 s build).
 */
export class WrittenGraphs {
  private readonly files = new Map<string, { hash: string; record: GraphFileRecord }>();
  private full = false;

  add(documents: readonly DocumentToStore[]): void {
    if (this.full) return;
    for (const document of documents) {
      // Extraction gives definitions and imports in line order, as the store reads them back.
      const record: GraphFileRecord = {
        resourceId: document.resourceId,
        path: document.path,
        language: document.language,
        definitions: document.graph?.definitions ?? [],
        references: document.graph?.references ?? [],
        imports: document.graph?.imports ?? [],
      };
      this.files.set(graphFileKey(record), { hash: document.hash, record });
    }
    if (this.files.size > MAX_FILES) {
      this.full = true;
      this.files.clear();
    }
  }

  known(): KnownGraphFiles {
    return this.files;
  }
}
