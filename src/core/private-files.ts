import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";
import { chmod, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/**
 * The index, its request logs and reports hold a project's code (and, before
 * secret files were kept out, its keys): readable by the user only. Modes are
 * set after creating, not left to the umask.
 */
export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates a folder and any missing parents, each only the user can enter. */
export function makePrivateFolder(folder: string): void {
  const first = mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  if (first === undefined) return;
  // Every folder this call created, from the deepest up to the first.
  for (let path = resolve(folder); ; path = dirname(path)) {
    chmodSync(path, PRIVATE_FOLDER_MODE);
    if (path === resolve(first) || dirname(path) === path) break;
  }
}

/** Creates an empty file only the user can read, unless it exists (then it is left as it is). */
export function createPrivateFile(file: string): void {
  closeSync(openSync(file, "a", PRIVATE_FILE_MODE));
  chmodSync(file, PRIVATE_FILE_MODE);
}

/** Writes a file only the user can read (a file already there is made so too). */
export async function writePrivateFile(file: string, data: string | Uint8Array): Promise<void> {
  await writeFile(file, data, { mode: PRIVATE_FILE_MODE });
  await chmod(file, PRIVATE_FILE_MODE);
}

/**
 * Takes group and other permissions away from a file or folder made by an
 * earlier version, when this user owns it. Best effort: a path that is gone,
 * someone else's or on a file system without modes is left as it is.
 */
export function tightenMode(path: string, mode: number): void {
  try {
    const stats = statSync(path);
    const uid = process.getuid?.();
    if (uid === undefined || stats.uid !== uid) return;
    if ((stats.mode & 0o777 & ~mode) === 0) return;
    chmodSync(path, stats.mode & mode);
  } catch {
    // Left as it is.
  }
}
