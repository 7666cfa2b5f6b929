import { readFileSync } from "node:fs";
import Database from "better-sqlite3";

/**
 * The floor to compare indexing against: the same files loaded as they are into
 * one SQLite FTS5 table, in one transaction, with no parsing or chunking.
 */
export function loadRawFts5(
  files: readonly string[],
  dbFile: string,
): { seconds: number; bytes: number } {
  const started = performance.now();
  const db = new Database(dbFile);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec("CREATE VIRTUAL TABLE docs USING fts5(path, body)");
  const insert = db.prepare("INSERT INTO docs (path, body) VALUES (?, ?)");
  let bytes = 0;
  db.transaction(() => {
    for (const file of files) {
      const body = readFileSync(file, "utf8");
      bytes += body.length;
      insert.run(file, body);
    }
  })();
  db.close();
  return { seconds: (performance.now() - started) / 1000, bytes };
}
