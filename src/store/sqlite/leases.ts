import type Database from "better-sqlite3";
import { inWriteTransaction } from "./write-transaction.js";

// Named leases in ctx_meta (`<name>_lease` = "<holder> <ms>"): work that only
// one process should do at a time (rebuilding the full-text index, paying a
// model for contexts or embeddings) takes one, renews it as it goes and releases
// it at the end. A lease not renewed within its expiry belongs to a process that died.

function keyOf(name: string): string {
  return `${name}_lease`;
}

function read(db: Database.Database, name: string): { holder: string; at: number } | null {
  const row = db.prepare("SELECT value FROM ctx_meta WHERE key = ?").get(keyOf(name)) as
    | { value: string }
    | undefined;
  if (!row) return null;
  const [holder = "", at = "0"] = row.value.split(" ");
  return { holder, at: Number(at) };
}

function write(db: Database.Database, name: string, holder: string): void {
  db.prepare(
    `INSERT INTO ctx_meta (key, value) VALUES (?, ?)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
  ).run(keyOf(name), `${holder} ${Date.now()}`);
}

/** Takes (or, for its holder, renews) the lease unless another holder's is live. */
export function takeLease(
  db: Database.Database,
  name: string,
  holder: string,
  expiryMs: number,
): boolean {
  return inWriteTransaction(db, () => {
    const held = read(db, name);
    if (held && held.holder !== holder && Date.now() - held.at < expiryMs) return false;
    write(db, name, holder);
    return true;
  });
}

/** Inside a write transaction: whether `holder` still holds the lease, renewing it if so. */
export function renewLease(db: Database.Database, name: string, holder: string): boolean {
  if (read(db, name)?.holder !== holder) return false;
  write(db, name, holder);
  return true;
}

export function releaseLease(db: Database.Database, name: string, holder: string): void {
  inWriteTransaction(db, () => {
    if (read(db, name)?.holder === holder) {
      db.prepare("DELETE FROM ctx_meta WHERE key = ?").run(keyOf(name));
    }
  });
}
