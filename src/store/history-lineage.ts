/** A stored file change, newest commit first, as the stores read it to follow renames. */
export interface ChangeLineageRow {
  readonly id: number;
  readonly commit_id: number;
  readonly path: string;
  readonly old_path: string | null;
  readonly lineage: string;
}

/**
 * Every change's lineage from scratch (rows newest commit first): a path takes
 * the name a later rename gave it, and one commit's renames apply to older
 * commits only. Returns the rows whose lineage differs from the stored one.
 */
export function relinkedLineages(
  rows: readonly ChangeLineageRow[],
): { readonly id: number; readonly lineage: string }[] {
  const changed: { id: number; lineage: string }[] = [];
  const later = new Map<string, string>();
  let index = 0;
  while (index < rows.length) {
    const commit = (rows[index] as ChangeLineageRow).commit_id;
    let end = index;
    while (end < rows.length && (rows[end] as ChangeLineageRow).commit_id === commit) end++;
    const renames: [string, string][] = [];
    for (const row of rows.slice(index, end)) {
      const lineage = later.get(row.path) ?? row.path;
      if (lineage !== row.lineage) changed.push({ id: row.id, lineage });
      if (row.old_path !== null && row.old_path !== row.path) renames.push([row.old_path, lineage]);
    }
    for (const [from, lineage] of renames) later.set(from, lineage);
    index = end;
  }
  return changed;
}
