import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { inWriteTransaction } from "./write-transaction.js";

/** Where the connection rebuilding the full-text index says so, with when it last did. */
const LEASE_KEY = "fts_rebuild_lease";

/**
 * A lease not renewed for this long belongs to a rebuild that died with its
 * process (a batch renews it; a batch takes well under a second).
 */
const LEASE_EXPIRY_MS = 2 * 60 * 1000;

/**
 * Who may rebuild the full-text index: one connection across all processes at a
 * time. Two processes that both found compaction due (two `ctx query` refreshes,
 * or one beside a server) used to build the same side table and drop it under
 * each other ("no such table: chunks_fts_next").
 */
export class RebuildLease {
  private readonly owner = randomUUID();

  constructor(private readonly db: Database.Database) {}

  /** Takes the lease unless another connection holds a live one. */
  take(): boolean {
    return inWriteTransaction(this.db, () => {
      const held = this.read();
      if (held && held.owner !== this.owner && Date.now() - held.at < LEASE_EXPIRY_MS) {
        return false;
      }
      this.write();
      return true;
    });
  }

  /** Inside a write transaction: whether the lease is still ours, renewing it if so. */
  renew(): boolean {
    if (this.read()?.owner !== this.owner) return false;
    this.write();
    return true;
  }

  release(): void {
    inWriteTransaction(this.db, () => {
      if (this.read()?.owner === this.owner) {
        this.db.prepare("DELETE FROM ctx_meta WHERE key = ?").run(LEASE_KEY);
      }
    });
  }

  private read(): { owner: string; at: number } | null {
    const row = this.db.prepare("SELECT value FROM ctx_meta WHERE key = ?").get(LEASE_KEY) as
      | { value: string }
      | undefined;
    if (!row) return null;
    const [owner = "", at = "0"] = row.value.split(" ");
    return { owner, at: Number(at) };
  }

  private write(): void {
    this.db
      .prepare(
        `INSERT INTO ctx_meta (key, value) VALUES (?, ?)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      )
      .run(LEASE_KEY, `${this.owner} ${Date.now()}`);
  }
}
