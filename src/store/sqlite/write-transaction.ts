import type Database from "better-sqlite3";
import {
  IndexBusyError,
  IndexCorruptError,
  IndexNotWritableError,
  StoreError,
} from "../../core/errors.js";
import { DISK_FULL, indexFileOf, readOnlyFault, writeFault } from "./write-fault.js";

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
    throw asIndexError(db, error);
  }
}

/**
 * `error` as the typed error a user can act on when it is SQLite's "busy",
 * "corrupt" (which SQLite finds only when it reads a damaged page, so at any
 * call, not only at open), "full", read-only or an I/O error; anything else
 * unchanged. A write that failed for want of space or of permission says
 * which (SQLite's own words for a full disk are often "disk I/O error").
 */
export function asIndexError(db: Database.Database, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return error;
  const file = indexFileOf(db);
  if (code.startsWith("SQLITE_BUSY")) {
    return new IndexBusyError(file, BUSY_TIMEOUT_MS, { cause: error });
  }
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") {
    return new IndexCorruptError(file, (error as Error).message, { cause: error });
  }
  const writing =
    code === "SQLITE_FULL" ||
    code.startsWith("SQLITE_READONLY") ||
    code.startsWith("SQLITE_IOERR") ||
    code.startsWith("SQLITE_CANTOPEN");
  if (!writing) return error;
  const fault =
    code === "SQLITE_FULL"
      ? DISK_FULL
      : (readOnlyFault(db) ?? (file === ":memory:" ? null : writeFault(file)));
  if (fault) return new IndexNotWritableError(file, fault.reason, fault.remedy, { cause: error });
  if (code.startsWith("SQLITE_CANTOPEN")) return error;
  return new StoreError(
    file,
    `cannot write the index (${(error as Error).message}); check that its folder is writable and the disk is healthy, then run the command again`,
    { cause: error },
  );
}
