import type Database from "better-sqlite3";
import { ulid } from "ulid";
import type { DocumentStore } from "../../core/store.js";
import type {
  Resource,
  ResourceKind,
  SecretFile,
  SkipCounts,
  SkippedFile,
} from "../../core/types.js";
import { emptySkipCounts } from "../../core/types.js";
import { type ResourceRow, skippedColumn, toResource } from "../resource-rows.js";
import { cachedStatement } from "./statement-cache.js";
import { inWriteTransaction } from "./write-transaction.js";

function findOrAddResource(db: Database.Database, root: string, kind: ResourceKind): Resource {
  const existing = db.prepare("SELECT * FROM resources WHERE root = ?").get(root) as
    | ResourceRow
    | undefined;
  if (existing) {
    if (existing.kind !== kind) {
      db.prepare("UPDATE resources SET kind = ? WHERE id = ?").run(kind, existing.id);
    }
    return toResource({ ...existing, kind });
  }
  const row: ResourceRow = {
    id: ulid(),
    root,
    kind,
    added_at: new Date().toISOString(),
    last_indexed_at: null,
    skipped: JSON.stringify(emptySkipCounts()),
  };
  db.prepare(
    "INSERT INTO resources (id, root, kind, added_at, last_indexed_at, skipped) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(row.id, row.root, row.kind, row.added_at, row.last_indexed_at, row.skipped);
  return toResource(row);
}

/**
 * The indexed roots over one connection. A finished run puts back the graph
 * indexes a large first write left out (`restoreGraphIndexes`).
 */
export function sqliteResources(
  db: Database.Database,
  restoreGraphIndexes: () => void,
): Pick<DocumentStore, "listResources" | "ensureResource" | "moveResource" | "recordRun"> {
  return {
    async listResources(): Promise<Resource[]> {
      const rows = cachedStatement(
        db,
        "SELECT * FROM resources ORDER BY added_at, id",
      ).all() as ResourceRow[];
      return rows.map(toResource);
    },
    /**
     * The resource for a root, added when new; its kind follows the latest call.
     * Read and written under the write lock: two processes indexing a new root at
     * once would both add it, and the second fail on the unique root.
     */
    async ensureResource(root: string, kind: ResourceKind): Promise<Resource> {
      return inWriteTransaction(db, () => findOrAddResource(db, root, kind));
    },
    async moveResource(resourceId: string, root: string): Promise<boolean> {
      return inWriteTransaction(db, () => {
        const taken = db
          .prepare("SELECT 1 FROM resources WHERE root = ? AND id <> ?")
          .get(root, resourceId);
        if (taken) return false;
        db.prepare("UPDATE resources SET root = ? WHERE id = ?").run(root, resourceId);
        return true;
      });
    },
    async recordRun(
      resourceId: string,
      skipped: SkipCounts,
      finishedAt: string,
      secretFiles: readonly SecretFile[] = [],
      skippedFiles: readonly SkippedFile[] = [],
    ): Promise<void> {
      inWriteTransaction(db, () =>
        db
          .prepare("UPDATE resources SET last_indexed_at = ?, skipped = ? WHERE id = ?")
          .run(finishedAt, skippedColumn(skipped, secretFiles, skippedFiles), resourceId),
      );
      restoreGraphIndexes();
    },
  };
}
