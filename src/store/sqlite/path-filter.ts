/**
 * SQL matching `d.path` (documents aliased `d`) against path prefixes: the path
 * itself or anything below it as a folder. LIKE wildcards in a prefix are literal.
 */
export function pathFilter(prefixes: readonly string[]): { sql: string; args: string[] } {
  return {
    sql: prefixes.map(() => "(d.path = ? OR d.path LIKE ? ESCAPE '\\')").join(" OR "),
    args: prefixes.flatMap((prefix) => [prefix, `${escapeLike(prefix.replace(/\/+$/, ""))}/%`]),
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
