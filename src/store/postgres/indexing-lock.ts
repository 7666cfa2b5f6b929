import type pg from "pg";
import { IndexBusyError } from "../../core/errors.js";
import type { IndexingLock } from "../../core/store.js";
import { explainPgError } from "./connection-errors.js";
import type { PgSession } from "./pg-session.js";

/** First key of ctx's advisory locks (the second is the project's id). */
const INDEXING_LOCK_CLASS = 0x637478; // "ctx"

/** Another process holds the project's indexing lock (a `ctx index`, a query's refresh, a server). */
export class ProjectBeingIndexedError extends IndexBusyError {
  constructor(location: string, project: string, waitedMs: number, options?: { cause?: unknown }) {
    super(location, waitedMs, options);
    this.message = `${location}: project ${project} is being indexed by another process (waited ${waitedMs / 1000} s); run the command again when that run is done`;
  }
}

/**
 * The project's advisory lock, on a connection of its own held until release:
 * one indexer per project at a time, across every machine using the database;
 * a process that dies drops its connection and so the lock.
 */
export async function lockIndexing(
  session: PgSession,
  project: string,
  waitMs: number,
): Promise<IndexingLock> {
  let client: pg.PoolClient;
  try {
    client = await session.pool.connect();
  } catch (error) {
    throw explainPgError(session.location, error);
  }
  try {
    await client.query(`SET lock_timeout = ${Math.max(1, Math.trunc(waitMs))}`);
    await client.query("SELECT pg_advisory_lock($1, $2)", [INDEXING_LOCK_CLASS, session.projectId]);
    await client.query("SET lock_timeout = 0");
  } catch (error) {
    const busy = (error as { code?: unknown }).code === "55P03";
    client.release(busy ? undefined : (error as Error));
    if (busy)
      throw new ProjectBeingIndexedError(session.location, project, waitMs, { cause: error });
    throw explainPgError(session.location, error);
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      try {
        await client.query("SELECT pg_advisory_unlock($1, $2)", [
          INDEXING_LOCK_CLASS,
          session.projectId,
        ]);
        client.release();
      } catch (error) {
        // The connection broke (its lock went with it): it must not go back to the pool.
        client.release(error as Error);
      }
    },
  };
}
