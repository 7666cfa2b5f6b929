import { isAbsolute, relative, sep } from "node:path";

/** Whether `path` is `folder` or lies below it. */
function within(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/**
 * Each root's share of `paths` (absolute), relative and `/`-separated; paths
 * outside every root are dropped. Undefined (all of every root) when a path is
 * a root itself or a folder holding one.
 */
export function scopeOf(
  roots: readonly string[],
  paths: readonly string[],
): ReadonlyMap<string, readonly string[]> | undefined {
  const scope = new Map<string, string[]>();
  for (const path of paths) {
    for (const root of roots) {
      if (within(root, path)) return undefined;
      if (!within(path, root)) continue;
      const list = scope.get(root) ?? [];
      list.push(relative(root, path).split(sep).join("/"));
      scope.set(root, list);
    }
  }
  return scope;
}
