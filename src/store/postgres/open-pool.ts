import type pg from "pg";
import { IndexMissingError, SchemaTooNewError, StoreError } from "../../core/errors.js";
import { explainPgError } from "./connection-errors.js";
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from "./migrations.js";

/** Oldest server and pgvector this store runs on (HNSW came with pgvector 0.5.0). */
export const MINIMUM_SERVER_VERSION = 130000;
export const MINIMUM_PGVECTOR = [0, 5, 0] as const;

export interface PoolOptions {
  readonly url: string;
  /** Shown in messages instead of the URL (the password masked). */
  readonly location: string;
  /** The database schema the tables live in. */
  readonly schema: string;
  /** Create the schema and the project when missing; otherwise a missing one is an error. */
  readonly create: boolean;
  readonly project: string;
  readonly maxConnections: number;
  /** Oldest server version accepted, as `server_version_num` (default 13). */
  readonly minimumServerVersion?: number;
}

export interface OpenedPool {
  readonly pool: pg.Pool;
  readonly projectId: number;
  /** The server's pgvector, e.g. "0.8.0". */
  readonly pgvectorVersion: string;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** bigint and count(*) as numbers: ids and counts stay far below 2^53. */
function numericTypes(driver: typeof pg): { getTypeParser: typeof pg.types.getTypeParser } {
  return {
    getTypeParser: ((oid: number, format?: "text" | "binary") =>
      oid === 20
        ? (value: string) => Number(value)
        : driver.types.getTypeParser(oid, format ?? "text")) as typeof pg.types.getTypeParser,
  };
}

/**
 * Connects to the server, checks its version and pgvector, brings the schema
 * up to date (one transaction, under a lock, so concurrent openers migrate
 * once) and finds or records the project.
 */
export async function openPool(options: PoolOptions): Promise<OpenedPool> {
  if (!SCHEMA_NAME.test(options.schema)) {
    throw new StoreError(
      options.location,
      `"${options.schema}" is not a schema name ctx uses: lower-case letters, digits and _`,
    );
  }
  // Loaded here, not with the library: importing the driver costs every program that
  // imports ctx about 70 ms, and most never open a PostgreSQL index.
  const { default: driver } = await import("pg");
  const setup = new driver.Client({
    connectionString: options.url,
    connectionTimeoutMillis: 10_000,
  });
  // A server that drops the connection while idle must not bring the process down.
  setup.on("error", () => {});
  let vector: { schema: string; version: string };
  let projectId: number;
  try {
    await setup.connect();
    await checkServer(setup, options);
    vector = await ensureVectorExtension(setup, options.location);
    projectId = await migrate(setup, options);
  } catch (error) {
    throw explainPgError(options.location, error);
  } finally {
    await setup.end().catch(() => {});
  }
  const pool = new driver.Pool({
    connectionString: options.url,
    max: options.maxConnections,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 10_000,
    options: `-c search_path=${options.schema},${vector.schema}`,
    types: numericTypes(driver),
  });
  // Idle connections that break (a server restart) are dropped; the next query reports it.
  pool.on("error", () => {});
  return { pool, projectId, pgvectorVersion: vector.version };
}

async function checkServer(client: pg.Client, options: PoolOptions): Promise<void> {
  const { rows } = await client.query<{ version: string; num: string }>(
    "SELECT current_setting('server_version') AS version, current_setting('server_version_num') AS num",
  );
  const row = rows[0];
  const minimum = options.minimumServerVersion ?? MINIMUM_SERVER_VERSION;
  if (row && Number(row.num) < minimum) {
    throw new StoreError(
      options.location,
      `PostgreSQL ${row.version.split(" ")[0]} is too old: ctx needs ${Math.floor(minimum / 10000)} or later; upgrade the server or use the SQLite index (--db with a file path)`,
    );
  }
}

/** Enables pgvector when it is not yet; returns the schema its types live in and its version. */
async function ensureVectorExtension(
  client: pg.Client,
  location: string,
): Promise<{ schema: string; version: string }> {
  const installed = async () =>
    (
      await client.query<{ schema: string; version: string }>(
        `SELECT n.nspname AS schema, e.extversion AS version FROM pg_extension e
         JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
      )
    ).rows[0];
  let found = await installed();
  if (!found) {
    try {
      // In public, so dropping a ctx schema never drops the extension other schemas use.
      await client.query("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public");
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === "58P01" || code === "0A000") {
        throw new StoreError(
          location,
          "the pgvector extension is not installed on this PostgreSQL server: install it (the postgresql-NN-pgvector package, or from source) and run the command again",
          { cause: error },
        );
      }
      if (code === "42501") {
        throw new StoreError(
          location,
          "the pgvector extension is not enabled in this database and this user may not enable it: have the database owner run CREATE EXTENSION vector",
          { cause: error },
        );
      }
      // Another process created it at the same moment.
      if (code !== "23505") throw error;
    }
    found = await installed();
  }
  if (!found) throw new StoreError(location, "the pgvector extension could not be enabled");
  if (compareVersions(found.version, MINIMUM_PGVECTOR) < 0) {
    throw new StoreError(
      location,
      `pgvector ${found.version} is too old: ctx needs ${MINIMUM_PGVECTOR.join(".")} or later (HNSW indexes); run ALTER EXTENSION vector UPDATE after upgrading it`,
    );
  }
  return found;
}

function compareVersions(version: string, minimum: readonly number[]): number {
  const parts = version.split(".").map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < minimum.length; i++) {
    const difference = (parts[i] ?? 0) - (minimum[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Brings the schema to this version and returns the project's id, in one transaction. */
async function migrate(client: pg.Client, options: PoolOptions): Promise<number> {
  const { schema, location } = options;
  await client.query("BEGIN");
  try {
    // One opener at a time migrates a schema; the others wait and find it done.
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`ctx migrate ${schema}`]);
    const exists = await schemaState(client, schema);
    if (exists === "foreign") {
      throw new StoreError(
        location,
        `schema ${schema} of this database holds tables that are not a ctx index; name another schema`,
      );
    }
    if (exists === "missing" && !options.create)
      throw new IndexMissingError(`${location} (schema ${schema})`);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`SET LOCAL search_path = ${schema}, public`);
    await client.query(
      "CREATE TABLE IF NOT EXISTS ctx_meta (key text PRIMARY KEY, value text NOT NULL)",
    );
    const version = Number(
      (
        await client.query<{ value: string }>(
          "SELECT value FROM ctx_meta WHERE key = 'schema_version'",
        )
      ).rows[0]?.value ?? 0,
    );
    if (version > PG_SCHEMA_VERSION)
      throw new SchemaTooNewError(location, version, PG_SCHEMA_VERSION);
    for (let next = version + 1; next <= PG_SCHEMA_VERSION; next++) {
      await client.query(PG_MIGRATIONS[next - 1] as string);
    }
    await client.query(
      `INSERT INTO ctx_meta (key, value) VALUES ('schema_version', $1)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [String(PG_SCHEMA_VERSION)],
    );
    let id = (
      await client.query<{ id: number }>("SELECT id FROM ctx_projects WHERE name = $1", [
        options.project,
      ])
    ).rows[0]?.id;
    if (id === undefined) {
      if (!options.create) throw new IndexMissingError(`${location} (project ${options.project})`);
      id = (
        await client.query<{ id: number }>(
          "INSERT INTO ctx_projects (name) VALUES ($1) RETURNING id",
          [options.project],
        )
      ).rows[0]?.id;
    }
    await client.query("COMMIT");
    return Number(id);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

async function schemaState(
  client: pg.Client,
  schema: string,
): Promise<"missing" | "ours" | "foreign"> {
  const { rows } = await client.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1",
    [schema],
  );
  if (rows.length === 0) return "missing";
  return rows.some((row) => row.name === "ctx_meta") ? "ours" : "foreign";
}
