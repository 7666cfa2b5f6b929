import {
  emptySkipCounts,
  type Resource,
  type ResourceKind,
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
    skipped: { ...emptySkipCounts(), ...(JSON.parse(row.skipped) as Partial<SkipCounts>) },
  };
}
