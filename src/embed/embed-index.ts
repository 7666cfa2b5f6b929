import { randomUUID } from "node:crypto";
import type { Embedder } from "../core/embedder.js";
import type { Store } from "../core/store.js";

export interface EmbedProgress {
  readonly phase: "embed";
  readonly done: number;
  readonly total: number;
}

export interface EmbedReport {
  readonly embedder: string;
  /** Texts embedded in this run. */
  readonly embedded: number;
  /** Chunks with a vector from this embedder, of all chunks, after the run. */
  readonly coverage: { readonly embedded: number; readonly total: number };
  /** Vectors dropped because no chunk has their text any more. */
  readonly pruned: number;
  readonly elapsedMs: number;
  /** Why embedding stopped early (the index itself is complete), null when it finished. */
  readonly error: string | null;
  /** True when another process was embedding this index: this run left the work to it. */
  readonly deferred: boolean;
}

/** Held while embedding, so two processes never pay to embed the same texts. */
const EMBED_LEASE = "embed";

/** Renewed after every batch; past this, its holder is taken to have died. */
const EMBED_LEASE_EXPIRY_MS = 10 * 60 * 1000;

/**
 * Embeds every chunk text that has no vector from this embedder yet, a batch at
 * a time, each batch committed on its own: an interrupted run keeps what it did
 * and the next one carries on. Unchanged text is never embedded twice.
 */
export async function embedIndex(
  store: Store,
  embedder: Embedder,
  options: { onProgress?: (progress: EmbedProgress) => void; signal?: AbortSignal } = {},
): Promise<EmbedReport> {
  const started = performance.now();
  const pruned = await store.vectors.pruneEmbeddings();
  const before = await store.vectors.embeddingCoverage(embedder.id);
  const pending = before.total - before.embedded;
  let embedded = 0;
  let error: string | null = null;
  let deferred = false;
  const step = embedder.batchSize * 4;
  const holder = randomUUID();
  const holdLease = () => store.state.takeLease(EMBED_LEASE, holder, EMBED_LEASE_EXPIRY_MS);
  try {
    for (;;) {
      options.signal?.throwIfAborted();
      if (pending > 0 && !(await holdLease())) {
        deferred = true;
        break;
      }
      const work = await store.vectors.listUnembedded(embedder.id, step);
      if (work.length === 0) break;
      const vectors = await embedder.embed(
        work.map((item) => item.text),
        options.signal ? { signal: options.signal } : {},
      );
      await store.vectors.putEmbeddings(
        embedder.id,
        embedder.dimensions,
        work.map((item, index) => ({
          embedHash: item.embedHash,
          vector: vectors[index] as Float32Array,
        })),
      );
      embedded += work.length;
      options.onProgress?.({ phase: "embed", done: Math.min(embedded, pending), total: pending });
    }
  } catch (caught) {
    // A stop (Ctrl-C) ends the run as one, not as an embedding failure the run goes on past.
    if (options.signal?.aborted) throw caught;
    error = (caught as Error).message.split("\n")[0] ?? "embedding failed";
  } finally {
    if (pending > 0) await store.state.releaseLease(EMBED_LEASE, holder);
  }
  return {
    embedder: embedder.id,
    embedded,
    coverage: await store.vectors.embeddingCoverage(embedder.id),
    pruned,
    elapsedMs: Math.round(performance.now() - started),
    error,
    deferred,
  };
}
