/** Whether `path` is under one of a request's path prefixes; every path is when it names none. */
export function withinPaths(path: string, prefixes: readonly string[] | undefined): boolean {
  return !prefixes?.length || prefixes.some((prefix) => path.startsWith(prefix));
}
