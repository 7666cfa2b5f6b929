import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { releaseLease, renewLease, takeLease } from "./leases.js";

const LEASE = "fts_rebuild";

/** A rebuild renews its lease every batch, well under a second apart. */
const LEASE_EXPIRY_MS = 2 * 60 * 1000;

/**
 * Who may rebuild the full-text index: one connection across all processes at a
 * time. Two processes that both found compaction due (two `ctx query` refreshes,
 * or one beside a server) used to build the same side table and drop it under
 * each other ("no such table: chunks_fts_next").
 */
export class RebuildLease {
  private readonly holder = randomUUID();

  constructor(private readonly db: Database.Database) {}

  /** Takes the lease unless another connection holds a live one. */
  take(): boolean {
    return takeLease(this.db, LEASE, this.holder, LEASE_EXPIRY_MS);
  }

  /** Inside a write transaction: whether the lease is still ours, renewing it if so. */
  renew(): boolean {
    return renewLease(this.db, LEASE, this.holder);
  }

  release(): void {
    releaseLease(this.db, LEASE, this.holder);
  }
}
