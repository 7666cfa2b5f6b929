import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
} from "node:fs";
import { basename, dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import {
  IndexMissingError,
  IndexNotWritableError,
  SchemaTooNewError,
  StoreError,
} from "../../core/errors.js";
import {
  createPrivateFile,
  makePrivateFolder,
  PRIVATE_FILE_MODE,
  PRIVATE_FOLDER_MODE,
  tightenMode,
} from "../../core/private-files.js";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.js";
import { registerNameTerm } from "./reference-lists.js";
import { markReadOnly, type WriteFault, writeFault } from "./write-fault.js";
import { asIndexError, BUSY_TIMEOUT_MS, inWriteTransaction } from "./write-transaction.js";

const SQLITE_MAGIC = "SQLite format 3\u0000";

// URI file names ("file:/…?immutable=1") are what lets SQLite read a WAL index
// on a read-only file system or a full disk, where its shared-memory file
// cannot be made. better-sqlite3 reads this once, as it first loads SQLite
// (its first `new Database`), which no module does on import.
process.env.SQLITE_USE_URI ??= "1";

export interface OpenOptions {
  /** Create the file (and its folder) when missing; otherwise a missing file is an error. */
  readonly create: boolean;
}

/**
 * Opens (or creates) an index file, checks it is ours and not from a newer
 * version, and brings its schema up to date in one transaction, so a failed
 * migration leaves the file as it was. An index that exists but cannot be
 * written where it lies (a read-only file system, a full disk: SQLite cannot
 * even make its journal files) is opened read-only instead (see
 * `readOnlyFault`), so that queries still answer from it.
 */
export function openDatabase(file: string, options: OpenOptions): Database.Database {
  const inMemory = file === ":memory:";
  const existed = !inMemory && existsSync(file);
  if (!inMemory && !existed) {
    if (!options.create) throw new IndexMissingError(file);
    makePrivateFolder(dirname(file));
    // Created empty (an index to be) with its mode, before SQLite creates it by the umask.
    createPrivateFile(file);
  } else if (!inMemory) {
    assertSqliteFile(file);
  }
  let db: Database.Database;
  try {
    db = new Database(sqlitePath(file));
  } catch (error) {
    const fault = existed ? writeFault(file) : null;
    const readOnly = fault ? openReadOnly(file, fault) : null;
    if (readOnly) return readOnly;
    throw new StoreError(file, `cannot open the index: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    // First, so that switching a new file to WAL also waits for another process.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    registerNameTerm(db);
    migrate(db, file);
    if (!inMemory) tightenIndexFiles(file);
    return db;
  } catch (caught) {
    db.close();
    const error = asIndexError(db, caught);
    if (existed && error instanceof IndexNotWritableError) {
      const readOnly = openReadOnly(file, { reason: error.reason, remedy: error.remedy });
      if (readOnly) return readOnly;
    }
    if (error instanceof StoreError) throw error;
    throw new StoreError(
      file,
      `the index is unreadable (${(error as Error).message}); move it aside and run \`ctx index\` again`,
      { cause: error },
    );
  }
}

/**
 * The index opened only to read, when it is of this version's schema (one
 * that is not cannot be brought up to date). Through SQLite, which reads the
 * write-ahead log too where its shared-memory file exists (a run that
 * stopped left them); else (a clean close merged the log into the file and
 * removed both, and they cannot be made again) as an immutable file, which
 * needs neither; else, where URI file names are off, from a copy in memory
 * of an index of at most `MAX_COPY_BYTES`. Null when none of these reads it.
 */
function openReadOnly(file: string, fault: WriteFault): Database.Database | null {
  const opens = [
    () => new Database(sqlitePath(file), { readonly: true, fileMustExist: true }),
    () => new Database(immutableUri(file), { readonly: true, fileMustExist: true }),
    () => new Database(fileInMemory(file), { readonly: true }),
  ];
  for (const open of opens) {
    let db: Database.Database | null = null;
    try {
      db = open();
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      registerNameTerm(db);
      if (schemaVersion(db, file) !== SCHEMA_VERSION) {
        db.close();
        return null;
      }
      markReadOnly(db, file, fault);
      return db;
    } catch {
      db?.close();
    }
  }
  return null;
}

/** An index larger than this is not copied into memory to be read (see openReadOnly). */
const MAX_COPY_BYTES = 256 * 1024 * 1024;

/** The file as an SQLite URI that opens it immutable: no locks, no journal files. */
function immutableUri(file: string): string {
  const escaped = resolve(file).replace(
    /[%?#]/g,
    (char) => `%${char.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
  return `file:${escaped}?immutable=1`;
}

/**
 * A file name as SQLite is to read it: a relative name that happens to start
 * with "file:" is not taken for a URI (see the SQLITE_USE_URI line above).
 */
function sqlitePath(file: string): string {
  return file.startsWith("file:") ? `./${file}` : file;
}

/** The index file's bytes, marked as a rollback-journal database: in memory there is no write-ahead log. */
function fileInMemory(file: string): Buffer {
  if (statSync(file).size > MAX_COPY_BYTES) throw new Error("too large to copy into memory");
  const bytes = readFileSync(file);
  // Header bytes 18 and 19: the file format versions for writing and reading, 2 for WAL.
  if (bytes[18] === 2) bytes[18] = 1;
  if (bytes[19] === 2) bytes[19] = 1;
  return bytes;
}

/**
 * The index, its write-ahead log and shared memory (SQLite gives them the
 * index's mode), and a `.ctx` folder, as an earlier version may have left
 * them readable by others.
 */
function tightenIndexFiles(file: string): void {
  for (const path of [file, `${file}-wal`, `${file}-shm`]) tightenMode(path, PRIVATE_FILE_MODE);
  const folder = dirname(file);
  if (basename(folder) === ".ctx") tightenMode(folder, PRIVATE_FOLDER_MODE);
}

function assertSqliteFile(file: string): void {
  const head = Buffer.alloc(16);
  let length: number;
  try {
    // Non-blocking: an index path that is a FIFO (a repository may ship one) must not hang.
    const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      if (!fstatSync(fd).isFile())
        throw new StoreError(
          file,
          "the index is not a regular file (a FIFO, device or folder); move it aside or pass --db with another path",
        );
      length = readSync(fd, head, 0, 16, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw new StoreError(file, `cannot read the index: ${(error as Error).message}`, {
      cause: error,
    });
  }
  // An empty file is what a crash during creation can leave: treat it as new.
  if (length > 0 && head.subarray(0, length).toString("latin1") !== SQLITE_MAGIC) {
    throw new StoreError(
      file,
      "not an index database (corrupt or another kind of file); move it aside or pass --db with another path",
    );
  }
}

function migrate(db: Database.Database, file: string): void {
  const found = schemaVersion(db, file);
  if (found > SCHEMA_VERSION) throw new SchemaTooNewError(file, found, SCHEMA_VERSION);
  if (found === SCHEMA_VERSION) return;
  inWriteTransaction(db, () => {
    // Again under the write lock: another process may have created or migrated it meanwhile.
    const current = schemaVersion(db, file);
    if (current > SCHEMA_VERSION) throw new SchemaTooNewError(file, current, SCHEMA_VERSION);
    db.exec("CREATE TABLE IF NOT EXISTS ctx_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    for (let version = current + 1; version <= SCHEMA_VERSION; version++) {
      db.exec(MIGRATIONS[version - 1] as string);
    }
    db.prepare(
      "INSERT INTO ctx_meta (key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    ).run(String(SCHEMA_VERSION));
  });
}

/** The file's schema version: 0 for an empty database; an error for one that is not an index. */
function schemaVersion(db: Database.Database, file: string): number {
  // One statement, one snapshot: read as two, another process creating the index could
  // commit between them, and its tables would show without their ctx_meta.
  const { hasMeta, entries } = db
    .prepare(
      "SELECT count(*) AS entries, coalesce(max(type = 'table' AND name = 'ctx_meta'), 0) AS hasMeta FROM sqlite_master",
    )
    .get() as { hasMeta: number; entries: number };
  if (!hasMeta) {
    if (entries > 0) {
      throw new StoreError(
        file,
        "this SQLite file is not a ctx index; pass --db with another path",
      );
    }
    return 0;
  }
  const row = db.prepare("SELECT value FROM ctx_meta WHERE key = 'schema_version'").get() as
    | { value: string }
    | undefined;
  return row ? Number(row.value) : 0;
}
