import type Database from "better-sqlite3";
import { inWriteTransaction } from "./write-transaction.js";

/** The graph tables' name indexes, as the schema defines them (migration 7). */
const NAME_INDEXES: readonly { readonly name: string; readonly create: string }[] = [
  {
    name: "graph_definitions_by_name",
    create: "CREATE INDEX IF NOT EXISTS graph_definitions_by_name ON graph_definitions(name)",
  },
  {
    name: "graph_definitions_by_lower_name",
    create:
      "CREATE INDEX IF NOT EXISTS graph_definitions_by_lower_name ON graph_definitions(lower(name))",
  },
];

/**
 * While a run fills empty graph tables (a first index), their name indexes are
 * left out and built at the end of the run from the filled tables: inserting
 * three.js's 15,000 definitions into two name indexes one by one cost more
 * than building them afterwards with one sort each. A run that stops
 * before its end leaves them out; opening the index builds them again.
 */
export class DeferredGraphIndexes {
  /** Whether this connection has looked at the tables since it last restored the indexes. */
  private decided = false;

  constructor(private readonly db: Database.Database) {}

  /** Inside the caller's write transaction, before it writes graph rows. */
  beforeWrite(): void {
    if (this.decided) return;
    this.decided = true;
    const empty = !this.db.prepare("SELECT 1 FROM graph_definitions LIMIT 1").get();
    if (!empty) return;
    for (const index of NAME_INDEXES) this.db.exec(`DROP INDEX IF EXISTS ${index.name}`);
  }

  /** Builds any name index that is missing (after a run, and when the index is opened). */
  restore(): void {
    this.decided = false;
    const present = new Set(
      (
        this.db
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name LIKE 'graph_%'",
          )
          .all() as { name: string }[]
      ).map((row) => row.name),
    );
    const missing = NAME_INDEXES.filter((index) => !present.has(index.name));
    if (missing.length === 0) return;
    inWriteTransaction(this.db, () => {
      for (const index of missing) this.db.exec(index.create);
    });
  }
}
