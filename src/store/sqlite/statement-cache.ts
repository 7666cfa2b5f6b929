import type Database from "better-sqlite3";

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * The connection's compiled statement for `sql`, compiled on first use: a
 * query's few look-ups (its search, the hits' rows, the project and its roots)
 * cost about half a millisecond more when each is compiled anew. Not for
 * statements that are iterated: a second user meanwhile would find it busy.
 */
export function cachedStatement(db: Database.Database, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}
