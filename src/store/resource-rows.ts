import {
  emptySkipCounts,
  type Resource,
  type ResourceKind,
  type SecretFile,
  type SkipCounts,
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
 * The `skipped` column: the counts by reason, and the secret files' names
 * under `secretFiles` (in the same JSON, so older indexes need no migration).
 */
export function skippedColumn(skipped: SkipCounts, secretFiles: readonly SecretFile[]): string {
  return JSON.stringify(secretFiles.length > 0 ? { ...skipped, secretFiles } : skipped);
}

export function parseSkipped(column: string): {
  skipped: SkipCounts;
  secretFiles: readonly SecretFile[];
} {
  const { secretFiles, ...counts } = JSON.parse(column) as Partial<SkipCounts> & {
    secretFiles?: SecretFile[];
  };
  return { skipped: { ...emptySkipCounts(), ...counts }, secretFiles: secretFiles ?? [] };
}
