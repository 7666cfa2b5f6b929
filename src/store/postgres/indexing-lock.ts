import { IndexBusyError } from "../../core/errors.js";
import type { IndexingLock } from "../../core/store.js";
import { explainPgError } from "./connection-errors.js";
import type { PgSession } from "./pg-session.js";

/**
 * The lock's two keys: the schema (project ids restart at 1 in each schema of
 * the database) and the project's id.
 */
const LOCK_KEY = "hashtext('ctx index ' || $1::text), $2::integer";

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
  const client = await session.connect();
  try {
    await client.query(`SET lock_timeout = ${Math.max(1, Math.trunc(waitMs))}`);
    await client.query(`SELECT pg_advisory_lock(${LOCK_KEY})`, [session.schema, session.projectId]);
    await client.query("SET lock_timeout = 0");
  } catch (error) {
    const busy = (error as { code?: unknown }).code === "55P03";
    client.release(busy ? undefined : (error as Error));
    if (busy)
      throw new ProjectBeingIndexedError(session.location, project, waitMs, { cause: error });
    throw explainPgError(session.location, error);
  }
  let released = false;
  const lost = (error: unknown) => {
    if (!released) session.lockLost = error;
  };
  client.on("error", lost);
  return {
    async release() {
      if (released) return;
      released = true;
      client.off("error", lost);
      session.lockLost = null;
      try {
        await client.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`, [
          session.schema,
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
