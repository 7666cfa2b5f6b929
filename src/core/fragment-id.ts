/**
 * Ids of file fragments: `resourceId:path#Lstart-Lend`, or `path#Lstart-Lend`
 * in what an index of one root shows. There the resource adds nothing, and a
 * random ULID costs a different number of tokens from one index to the next
 * (29 to 31 for one fragment id), which moved the budget's edge between two
 * fresh indexes of the same tree.
 */

/** The full id: unique across the roots of an index. */
export function fileFragmentId(
  resourceId: string,
  path: string,
  startLine: number,
  endLine: number,
): string {
  return `${resourceId}:${path}#L${startLine}-L${endLine}`;
}

/** The same id with other lines, in the form it came in (with or without its resource). */
export function withLines(id: string, startLine: number, endLine: number): string {
  const at = id.lastIndexOf("#L");
  return `${at < 0 ? id : id.slice(0, at)}#L${startLine}-L${endLine}`;
}

export interface ParsedFragmentId {
  /** Null when the id was shown without its resource. */
  readonly resourceId: string | null;
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
}

const FRAGMENT_ID = /^(?:([0-9A-HJKMNP-TV-Z]{26}):)?(.+)#L(\d+)-L(\d+)$/;

export function parseFragmentId(id: string): ParsedFragmentId | null {
  const match = FRAGMENT_ID.exec(id);
  if (!match) return null;
  return {
    resourceId: match[1] ?? null,
    path: match[2] as string,
    startLine: Number(match[3]),
    endLine: Number(match[4]),
  };
}

/**
 * How outputs show fragment ids for an index with these resources: without the
 * resource while there is one root, in full when several could hold the path.
 */
export function fragmentIdShower(resourceIds: readonly string[]): (id: string) => string {
  if (resourceIds.length !== 1) return (id) => id;
  const prefix = `${resourceIds[0] as string}:`;
  return (id) => (id.startsWith(prefix) ? id.slice(prefix.length) : id);
}
