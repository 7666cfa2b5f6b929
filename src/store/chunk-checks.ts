import { chunkChecksum } from "../core/chunk-checksum.js";
import type { StoredChunk } from "../core/types.js";
import { visibleText } from "../text/visible-text.js";

/**
 * Checks the text of every chunk a store reads against the checksum written
 * with it, so that a damaged index file (a flipped bit, a torn page, an edit
 * by hand) is reported instead of served: SQLite and PostgreSQL check their
 * own pages' structure, not what a row holds. A chunk that fails is left out
 * of what the store returns, said once per process, and its document is
 * marked to be read again on the next index run (best effort: a read-only
 * index keeps it left out). About 3 microseconds a chunk: a query reads a hundred or so.
 */
export class ChunkChecks {
  private readonly reported = new Set<number>();

  constructor(
    private readonly location: string,
    /** Makes the next index run read these documents' files again. */
    private readonly readAgain: (documentIds: readonly number[]) => Promise<void> | void,
    private readonly warn: (message: string) => void,
  ) {}

  intact(chunks: StoredChunk[]): StoredChunk[] {
    const damaged = chunks.filter((chunk) => chunkChecksum(chunk.content) !== chunk.hash);
    if (damaged.length === 0) return chunks;
    this.report(damaged);
    return chunks.filter((chunk) => !damaged.includes(chunk));
  }

  intactHits<T extends { readonly chunk: StoredChunk }>(hits: T[]): T[] {
    const kept = new Set(this.intact(hits.map((hit) => hit.chunk)));
    return kept.size === hits.length ? hits : hits.filter((hit) => kept.has(hit.chunk));
  }

  private report(damaged: readonly StoredChunk[]): void {
    const first = damaged.filter((chunk) => !this.reported.has(chunk.id));
    if (first.length === 0) return;
    for (const chunk of first) {
      this.reported.add(chunk.id);
      // A file name is the repository's text: shown, not obeyed by the terminal.
      this.warn(
        visibleText(
          `${this.location}: the stored text of ${chunk.path}:${chunk.startLine}-${chunk.endLine} does not match its checksum (the index file is damaged): left out of answers; the next \`ctx index\` reads the file again`,
        ),
      );
    }
    try {
      Promise.resolve(this.readAgain([...new Set(first.map((chunk) => chunk.documentId))])).catch(
        () => undefined,
      );
    } catch {
      // Marking is a convenience: a read-only or busy index still leaves the chunk out.
    }
  }
}
