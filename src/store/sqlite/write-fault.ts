import { accessSync, constants, statfsSync } from "node:fs";
import { dirname } from "node:path";

/** Free space under which a failed write is put down to a full disk. */
const FULL_BELOW_BYTES = 1024 * 1024;

/** Why an index file cannot be written, and what to do about it. */
export interface WriteFault {
  /** A few words: "the disk is full". */
  readonly reason: string;
  readonly remedy: string;
}

export const DISK_FULL: WriteFault = {
  reason: "the disk is full",
  remedy: "free some space on it and run the command again",
};

/**
 * Why the index file, or the journal files SQLite keeps beside it, cannot be
 * written, from what the file system says of its folder: a read-only file
 * system, a folder or file this user cannot write, a full disk. Null when none
 * of these explains a failed write (a failing disk, say).
 */
export function writeFault(file: string): WriteFault | null {
  const folder = dirname(file);
  for (const [path, what] of [
    [folder, "its folder"],
    [file, "the index file"],
  ] as const) {
    try {
      accessSync(path, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EROFS") {
        return {
          reason: "it lies on a read-only file system",
          remedy: "make that file system writable, or pass --db with an index on one that is",
        };
      }
      if (code === "EACCES" || code === "EPERM") {
        return {
          reason: `${what} is not writable by this user`,
          remedy: "give this user write access to it, or pass --db with another index",
        };
      }
    }
  }
  try {
    const space = statfsSync(folder);
    if (space.bavail * space.bsize < FULL_BELOW_BYTES) return DISK_FULL;
  } catch {
    // Nothing more to say.
  }
  return null;
}

/** Connections opened read-only because their index could not be written: the file and why. */
const readOnly = new WeakMap<object, { readonly file: string; readonly fault: WriteFault }>();

export function markReadOnly(db: object, file: string, fault: WriteFault): void {
  readOnly.set(db, { file, fault });
}

/** Why the connection was opened read-only; null when it was opened to write. */
export function readOnlyFault(db: object): WriteFault | null {
  return readOnly.get(db)?.fault ?? null;
}

/** The index file a connection reads (a copy in memory is named by the file it was read from). */
export function indexFileOf(db: { readonly name: string }): string {
  return readOnly.get(db)?.file ?? db.name;
}
