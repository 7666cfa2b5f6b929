import type { Embedder } from "../core/embedder.js";
import type { Store } from "../core/store.js";
import type { VectorBackend } from "../core/text-backend.js";

/** The store's vectors of one embedder, searched with queries embedded by the same embedder. */
export function vectorBackend(store: Store, embedder: Embedder): VectorBackend {
  return {
    embedderId: embedder.id,
    quality: embedder.quality,
    searchVectors: (vector, limit, pathPrefixes) =>
      store.vectors.searchVectors(embedder.id, vector, limit, pathPrefixes),
    embedQuery: async (text, signal) => {
      const [vector] = await embedder.embed([text], signal ? { signal } : {});
      if (!vector) throw new Error(`${embedder.id} returned no vector for the query`);
      return vector;
    },
  };
}
