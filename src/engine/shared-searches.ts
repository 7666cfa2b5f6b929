import type { LineSpan, TextBackend, TextHit, TextQuery } from "../core/text-backend.js";
import type { StoredChunk } from "../core/types.js";

/**
 * One query's text backend: strategies that ask the same search (the keyword
 * strategy and the navigator both match the task's terms) or read the same
 * file's chunks share one answer instead of each paying for it. Made per
 * query, so nothing outlives the index state it was read from.
 */
export function sharedSearches(backend: TextBackend): TextBackend {
  const searches = new Map<string, Promise<TextHit[]>>();
  const documents = new Map<string, Promise<StoredChunk[]>>();
  return {
    async searchText(query: TextQuery): Promise<TextHit[]> {
      const key = JSON.stringify([query.terms, query.limit, query.pathPrefixes ?? []]);
      let hits = searches.get(key);
      if (!hits) {
        hits = backend.searchText(query);
        // A failed search is not remembered: the next strategy asks again.
        hits.catch(() => searches.delete(key));
        searches.set(key, hits);
      }
      // Each caller gets its own array, free to sort or cut.
      return [...(await hits)];
    },
    async getDocumentChunks(
      resourceId: string,
      path: string,
      limit?: number,
      lines?: LineSpan,
    ): Promise<StoredChunk[]> {
      const whole = `${resourceId}\0${path}`;
      if (lines) {
        // A file read whole answers a span; a span is not kept (spans seldom repeat).
        const read = documents.get(whole);
        if (!read) return backend.getDocumentChunks(resourceId, path, limit, lines);
        const held = (await read).filter(
          (chunk) => chunk.endLine >= lines.from && chunk.startLine <= lines.to,
        );
        return held.slice(0, limit);
      }
      // A file read whole answers any first few; a first few are kept apart from it.
      const key = limit === undefined || documents.has(whole) ? whole : `${whole}\0${limit}`;
      let chunks = documents.get(key);
      if (!chunks) {
        chunks = backend.getDocumentChunks(resourceId, path, limit);
        chunks.catch(() => documents.delete(key));
        documents.set(key, chunks);
      }
      return (await chunks).slice(0, limit);
    },
  };
}
