import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { UsageError } from "../core/errors.js";
import type { HistorySpan } from "../core/history.js";
import type { Store } from "../core/store.js";
import type { Resource } from "../core/types.js";

/** Meta key: the project folder the index's roots were last recorded under. */
export const PROJECT_ROOT_KEY = "project_root";

/** Whether `path` is `folder` or lies below it. */
function within(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/**
 * Keeps an index that moved with its project (a renamed folder, a copy, another
 * mount point) pointing at the project's own files: roots recorded under the
 * folder the project was in are moved to the same place under the folder it is
 * in now. Roots are absolute paths, so before this every query of a moved
 * project failed on the old folder, and a copy refreshed from the original.
 * Only an index file inside the project moves with it: one kept elsewhere
 * (`--db`, an absolute store path) is left as it is.
 */
export async function followProject(store: Store, root: string, indexFile: string): Promise<void> {
  const project = realpathSync(root);
  if (!within(realpathSync(indexFile), project)) return;
  const recorded = await store.state.getMeta(PROJECT_ROOT_KEY);
  if (recorded === project) return;
  if (recorded !== null) {
    for (const resource of await store.documents.listResources()) {
      if (!within(resource.root, recorded)) continue;
      await store.documents.moveResource(
        resource.id,
        join(project, relative(recorded, resource.root)),
      );
    }
  }
  await store.state.setMeta(PROJECT_ROOT_KEY, project);
}

/**
 * Removes a root the index covers (`path` as shown by status, or a path to the
 * same folder) with all its documents; returns the root and how many went.
 */
export async function forgetRoot(
  store: Store,
  path: string,
): Promise<{ root: string; documents: number }> {
  const wanted = resolve(path);
  const resources = await store.documents.listResources();
  const match =
    resources.find((resource) => resource.root === wanted) ??
    resources.find((resource) => existsSync(wanted) && resource.root === realpathSync(wanted));
  if (!match) {
    const roots = resources.map((resource) => resource.root).join(", ") || "none";
    throw new UsageError(`${wanted} is not a root of this index (its roots: ${roots})`);
  }
  return { root: match.root, documents: await store.documents.removeResource(match.id) };
}

/** The roots the index covers, or `root` for an index that covers none yet. */
export async function coveredRoots(store: Store, root: string): Promise<string[]> {
  const resources = await store.documents.listResources();
  return resources.length > 0 ? resources.map((resource) => resource.root) : [root];
}

/** The index's roots, each with whether its folder is gone. */
export async function rootsWithPresence(
  store: Store,
): Promise<(Resource & { readonly missing: boolean; readonly history: HistorySpan | null })[]> {
  const resources = await store.documents.listResources();
  return Promise.all(
    resources.map(async (resource) => ({
      ...resource,
      missing: !existsSync(resource.root),
      history: resource.kind === "git" ? await store.history.historySpan(resource.id) : null,
    })),
  );
}
