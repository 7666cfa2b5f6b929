import type Database from "better-sqlite3";
import { IndexBusyError } from "../../core/errors.js";

/** How long a connection waits for another one's write lock (PRAGMA busy_timeout). */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Runs `write` in one transaction that takes the write lock when it begins.
 * A deferred transaction (better-sqlite3's default) reads first and asks for the
 * lock at its first write; if another process committed in between, SQLite
 * fails it at once with "database is locked" instead of waiting, which is what
 * concurrent `ctx query` refreshes and a `ctx index` met. Waiting longer than
 * the busy timeout is reported as an IndexBusyError naming the file.
 */
export function inWriteTransaction<T>(db: Database.Database, write: () => T): T {
  try {
    return db.transaction(write).immediate();
  } catch (error) {
    throw busyAsIndexError(db, error);
  }
}

/** `error` as an IndexBusyError when it is SQLite's "busy", else unchanged. */
export function busyAsIndexError(db: Database.Database, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code.startsWith("SQLITE_BUSY")) {
    return new IndexBusyError(db.name, BUSY_TIMEOUT_MS, { cause: error });
  }
  return error;
}
