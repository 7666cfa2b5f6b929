import type pg from "pg";
import { explainPgError } from "./connection-errors.js";

/** Connections already given an error listener (once each: they go back to the pool). */
const WATCHED = new WeakSet<pg.PoolClient>();

/** Something queries run on: the pool, or one connection inside a transaction. */
export type Queryable = Pick<pg.PoolClient, "query">;

/**
 * One project's connection to the database: the pool, the project's id that
 * every query names, and where errors say they came from.
 */
export class PgSession {
  constructor(
    readonly pool: pg.Pool,
    readonly projectId: number,
    readonly location: string,
    /** The database schema the tables live in. */
    readonly schema: string,
  ) {}

  /** Why the connection holding this session's indexing lock broke; null while it holds (or none is held). */
  lockLost: unknown = null;

  /** Rows of one statement, run on any pooled connection. */
  async rows<T extends object>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    try {
      return (await this.pool.query<T>(sql, params as unknown[])).rows;
    } catch (error) {
      throw explainPgError(this.location, error);
    }
  }

  /** The first row of one statement, or undefined. */
  async row<T extends object>(
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<T | undefined> {
    return (await this.rows<T>(sql, params))[0];
  }

  /**
   * Runs `work` in one transaction on one connection: committed when it
   * returns, rolled back when it throws (or the connection breaks), so a run
   * killed or cut off mid-way leaves every row as it was or as written.
   */
  async transaction<T>(work: (client: Queryable) => Promise<T>): Promise<T> {
    // The server dropped the indexing lock's connection (it restarted): writing
    // on without the lock could race another indexer, so the run stops here.
    if (this.lockLost !== null) throw explainPgError(this.location, this.lockLost);
    const client = await this.connect();
    let broken: unknown;
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      try {
        await client.query("ROLLBACK");
      } catch (rollbackFailed) {
        // The connection itself failed: it must not go back to the pool.
        broken = rollbackFailed;
      }
      throw explainPgError(this.location, error);
    } finally {
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  /**
   * A connection of the pool for the caller alone. A server that goes away
   * makes a connection emit an error even while no query runs on it; without
   * a listener that would end the process instead of failing the next query.
   */
  async connect(): Promise<pg.PoolClient> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw explainPgError(this.location, error);
    }
    if (!WATCHED.has(client)) {
      WATCHED.add(client);
      client.on("error", () => {});
    }
    return client;
  }
}

/** Rows of a statement on a transaction's connection. */
export async function rowsOf<T extends object>(
  client: Queryable,
  sql: string,
  params: readonly unknown[] = [],
): Promise<T[]> {
  return (await client.query<T>(sql, params as unknown[])).rows;
}
