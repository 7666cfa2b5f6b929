import pg from "pg";
import { explainPgError, maskUrl } from "./connection-errors.js";

/**
 * Drops a schema with everything in it (a temporary one, as `ctx eval --db`
 * makes): the extension pgvector lives in public and stays.
 */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } catch (error) {
    throw explainPgError(maskUrl(url), error);
  } finally {
    await client.end().catch(() => {});
  }
}
