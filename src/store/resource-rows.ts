import {
  emptySkipCounts,
  type Resource,
  type ResourceKind,
  type SecretFile,
  type SkipCounts,
  type SkippedFile,
} from "../core/types.js";

/** A resource row as both stores keep it (skip counts as JSON). */
export interface ResourceRow {
  id: string;
  root: string;
  kind: ResourceKind;
  added_at: string;
  last_indexed_at: string | null;
  skipped: string;
}

export function toResource(row: ResourceRow): Resource {
  return {
    id: row.id,
    root: row.root,
    kind: row.kind,
    addedAt: row.added_at,
    lastIndexedAt: row.last_indexed_at,
    ...parseSkipped(row.skipped),
  };
}

/**
 * The `skipped` column: the counts by reason, the secret files' names under
 * `secretFiles` and the other skipped files' under `skippedFiles` (in the same
 * JSON, so older indexes need no migration: they name none until the next run).
 */
export function skippedColumn(
  skipped: SkipCounts,
  secretFiles: readonly SecretFile[],
  skippedFiles: readonly SkippedFile[] = [],
): string {
  return JSON.stringify({
    ...skipped,
    ...(secretFiles.length > 0 ? { secretFiles } : {}),
    ...(skippedFiles.length > 0 ? { skippedFiles } : {}),
  });
}

export function parseSkipped(column: string): {
  skipped: SkipCounts;
  secretFiles: readonly SecretFile[];
  skippedFiles: readonly SkippedFile[];
} {
  const { secretFiles, skippedFiles, ...counts } = JSON.parse(column) as Partial<SkipCounts> & {
    secretFiles?: SecretFile[];
    skippedFiles?: SkippedFile[];
  };
  return {
    skipped: { ...emptySkipCounts(), ...counts },
    secretFiles: secretFiles ?? [],
    skippedFiles: skippedFiles ?? [],
  };
}
