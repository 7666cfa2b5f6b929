import { realpathSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import type { Store } from "../core/store.js";

/** Meta key: the project folder the index's roots were last recorded under. */
export const PROJECT_ROOT_KEY = "project_root";

/** Whether `path` is `folder` or lies below it. */
function within(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
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
  const recorded = await store.getMeta(PROJECT_ROOT_KEY);
  if (recorded === project) return;
  if (recorded !== null) {
    for (const resource of await store.listResources()) {
      if (!within(resource.root, recorded)) continue;
      await store.moveResource(resource.id, join(project, relative(recorded, resource.root)));
    }
  }
  await store.setMeta(PROJECT_ROOT_KEY, project);
}
