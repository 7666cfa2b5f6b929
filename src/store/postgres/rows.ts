/**
 * SQL matching `d.path` against path prefixes (the path itself or anything
 * below it as a folder), its parameters numbered from `first`.
 */
export function pgPathFilter(
  prefixes: readonly string[],
  first: number,
): { sql: string; params: string[] } {
  const params = prefixes.flatMap((prefix) => [
    prefix,
    `${escapeLike(prefix.replace(/\/+$/, ""))}/%`,
  ]);
  const sql = prefixes
    .map((_, i) => `(d.path = $${first + 2 * i} OR d.path LIKE $${first + 2 * i + 1})`)
    .join(" OR ");
  return { sql: `(${sql})`, params };
}

/** `%`, `_` and `\` match themselves in a LIKE pattern (backslash is the default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
