import { randomBytes } from "node:crypto";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach } from "vitest";
import type { Store } from "../../src/core/store.js";
import { PostgresStore } from "../../src/store/postgres/postgres-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { tempDir } from "./temp-dir.js";

/**
 * The PostgreSQL server the tests use: `CTX_TEST_DATABASE_URL`, else the
 * throwaway cluster `scripts/start-test-postgres.sh` starts on loopback.
 */
export const TEST_DATABASE_URL =
  process.env.CTX_TEST_DATABASE_URL ?? "postgres://postgres:ctx-test@127.0.0.1:55432/postgres";

async function serverAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Whether the PostgreSQL tests run: yes when the server answers. In CI
 * (`CI` set) they run regardless, so a missing server fails them instead of
 * skipping them; elsewhere they are skipped with a line saying how to run them.
 */
export const postgresAvailable = await serverAnswers(TEST_DATABASE_URL);
export const runPostgres = postgresAvailable || Boolean(process.env.CI);
if (!runPostgres) {
  process.stderr.write(
    `PostgreSQL tests skipped: no server at ${TEST_DATABASE_URL} (run scripts/start-test-postgres.sh, or set CTX_TEST_DATABASE_URL)\n`,
  );
}

/** A schema name no other test uses. */
export function freshSchema(): string {
  return `ctx_test_${randomBytes(6).toString("hex")}`;
}

const schemas = new Set<string>();

/** A schema name no other test uses, dropped from the test server after the file. */
export function scratchSchema(): string {
  const schema = freshSchema();
  schemas.add(schema);
  return schema;
}
const opened: Store[] = [];

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close().catch(() => {});
});

afterAll(async () => {
  if (schemas.size === 0 || !postgresAvailable) return;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
});

/** Runs SQL on the test server outside any store (to damage or inspect what a store wrote). */
export async function adminQuery(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    return await admin.query(sql, params);
  } finally {
    await admin.end();
  }
}

/** A place a store lives: opened fresh, or again (as another process would). */
export interface StorePlace {
  open(options?: { create?: boolean }): Promise<Store>;
  /** Sets the stored schema version (to play an index written by a newer ctx). */
  setSchemaVersion(version: number): Promise<void>;
  /** Changes stored chunk text behind the store's back (to play a damaged index). */
  damageChunkText(from: string, to: string): Promise<void>;
}

export interface StoreAdapter {
  readonly name: string;
  /** A new place for an index; its stores are closed after each test. */
  place(): StorePlace;
}

function remember(store: Store): Store {
  opened.push(store);
  return store;
}

export const sqliteAdapter: StoreAdapter = {
  name: "sqlite",
  place() {
    const file = join(tempDir("ctx-store-"), "index.db");
    return {
      async open(options = {}) {
        return remember(SqliteStore.open(file, { create: options.create ?? true }));
      },
      async setSchemaVersion(version) {
        const { default: Database } = await import("better-sqlite3");
        const db = new Database(file);
        db.prepare("UPDATE ctx_meta SET value = ? WHERE key = 'schema_version'").run(
          String(version),
        );
        db.close();
      },
      async damageChunkText(from, to) {
        const { default: Database } = await import("better-sqlite3");
        const db = new Database(file);
        db.prepare("UPDATE chunks SET content = replace(content, ?, ?)").run(from, to);
        db.close();
      },
    };
  },
};

export const postgresAdapter: StoreAdapter = {
  name: "postgres",
  place() {
    const schema = freshSchema();
    schemas.add(schema);
    return {
      async open(options = {}) {
        return remember(
          await PostgresStore.open(TEST_DATABASE_URL, {
            project: "local/test",
            schema,
            create: options.create ?? true,
          }),
        );
      },
      async setSchemaVersion(version) {
        await adminQuery(`UPDATE ${schema}.ctx_meta SET value = $1 WHERE key = 'schema_version'`, [
          String(version),
        ]);
      },
      async damageChunkText(from, to) {
        await adminQuery(`UPDATE ${schema}.chunks SET content = replace(content, $1, $2)`, [
          from,
          to,
        ]);
      },
    };
  },
};

/** Every store adapter the contract suites run on (PostgreSQL when its server is there, or in CI). */
export const STORE_ADAPTERS: readonly StoreAdapter[] = runPostgres
  ? [sqliteAdapter, postgresAdapter]
  : [sqliteAdapter];

/** `describe.each` rows: [name, adapter]. */
export const STORE_ADAPTER_ROWS: [string, StoreAdapter][] = STORE_ADAPTERS.map((adapter) => [
  adapter.name,
  adapter,
]);
