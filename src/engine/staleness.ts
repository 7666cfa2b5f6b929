import type { Store } from "../core/store.js";
import type { Resource } from "../core/types.js";
import { discoverFiles, type HydrationLimits } from "../ingest/hydrate/discover-files.js";

/** Files that differ from the index: what a refresh would re-read or remove. */
export interface Staleness {
  readonly changed: number;
  readonly added: number;
  readonly removed: number;
}

/** Compares each root's files (by size and mtime, nothing read) with the indexed documents. */
export async function measureStaleness(
  store: Store,
  resources: readonly Resource[],
  limits: HydrationLimits,
): Promise<Staleness> {
  let changed = 0;
  let added = 0;
  let removed = 0;
  for (const resource of resources) {
    const known = new Map(
      (await store.documents.listDocuments(resource.id)).map((doc) => [doc.path, doc]),
    );
    let discovered: Awaited<ReturnType<typeof discoverFiles>>;
    try {
      discovered = await discoverFiles(resource.root, limits);
    } catch {
      removed += known.size;
      continue;
    }
    // Files kept out for the secrets in them are not new each time they are seen.
    const secret = new Set(resource.secretFiles.map((file) => file.path));
    for (const file of discovered.files) {
      const doc = known.get(file.relPath);
      known.delete(file.relPath);
      if (!doc) {
        if (!secret.has(file.relPath)) added++;
      } else if (doc.size !== file.size || doc.mtimeMs !== Math.trunc(file.mtimeMs)) changed++;
    }
    removed += known.size;
  }
  return { changed, added, removed };
}
