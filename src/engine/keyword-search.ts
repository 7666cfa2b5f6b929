import { UsageError } from "../core/errors.js";
import type { Store } from "../core/store.js";
import type { TextHit } from "../core/text-backend.js";
import { queryTerms } from "../text/code-tokenizer.js";

/** Ranked chunks for a keyword query, best first (`ctx search`, MCP `search`). */
export function keywordSearch(
  store: Store,
  query: string,
  limit: number,
  paths?: readonly string[],
): Promise<TextHit[]> {
  if (!Number.isInteger(limit) || limit <= 0) {
    throw new UsageError(`limit must be a positive whole number, got ${limit}`);
  }
  return store.documents.searchText({
    terms: queryTerms(query),
    limit,
    ...(paths ? { pathPrefixes: paths } : {}),
  });
}
