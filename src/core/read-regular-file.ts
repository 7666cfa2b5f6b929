import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  read,
  readlinkSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
import { promisify } from "node:util";
import { CtxError } from "./errors.js";

const readAsync = promisify(read);

/** The most a config-like file (ctx.toml, .ctxignore, .gitignore, tsconfig.json) may hold. */
export const CONFIG_FILE_MAX_BYTES = 1024 * 1024;

/** Why a file was not read. */
export type ReadRefusal =
  | "missing"
  | "not-a-regular-file"
  | "too-large"
  | "outside-root"
  | "unreadable";

export interface ReadBounds {
  /** A file larger than this many bytes is refused, not read in part. */
  readonly maxBytes: number;
  /**
   * When set, the file's real path (symbolic links followed) must lie inside
   * this folder's real path.
   */
  readonly root?: string;
}

export interface RefusedRead {
  readonly ok: false;
  readonly reason: ReadRefusal;
  /** What was found, as the end of a sentence: "it is a FIFO (named pipe), not a regular file". */
  readonly detail: string;
}

export type RegularFileRead =
  | { readonly ok: true; readonly bytes: Buffer; readonly realPath: string }
  | RefusedRead;

export type RegularTextRead =
  | { readonly ok: true; readonly text: string; readonly realPath: string }
  | RefusedRead;

export type RegularFileCheck =
  | { readonly ok: true; readonly size: number; readonly realPath: string }
  | RefusedRead;

/** A file that was not served or read, with why: one line an agent or a user can act on. */
export class FileRefusedError extends CtxError {
  readonly reason: ReadRefusal | "not-indexed";

  constructor(
    path: string,
    refused: Pick<RefusedRead, "detail"> & { reason: FileRefusedError["reason"] },
  ) {
    super("file_refused", `refused ${JSON.stringify(path)}: ${refused.detail}`);
    this.reason = refused.reason;
  }
}

/*
 * Non-blocking, so opening a FIFO returns at once instead of waiting for a
 * writer; no controlling terminal, so opening a tty is harmless. Both are
 * absent (undefined) on Windows, where neither applies.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Reads a whole file only if it is a regular file of at most `maxBytes`
 * (a FIFO, socket, device such as /dev/zero, or folder is refused, never
 * opened for a blocking read) and, with a `root`, only if its real path lies
 * inside the root's. The type and size are checked again on the open
 * descriptor, and the confinement on the descriptor's own path where the
 * system tells it, so a file swapped for a link or a pipe after the first
 * check is still refused.
 */
export function readRegularFile(path: string, bounds: ReadBounds): RegularFileRead {
  return withRegularFile(path, bounds, (fd, size, realPath) => {
    const bytes = readAtMost(fd, size, bounds.maxBytes);
    if (bytes === null) return tooLarge(bounds.maxBytes, `more than ${bounds.maxBytes}`);
    return { ok: true, bytes, realPath };
  });
}

/**
 * readRegularFile with the bytes read on libuv's pool: the checks are the
 * same, and the caller's thread is free meanwhile (a large file read while a
 * child process works).
 */
export async function readRegularFileAsync(
  path: string,
  bounds: ReadBounds,
): Promise<RegularFileRead> {
  const opened = openRegularFile(path, bounds);
  if (!opened.ok) return opened;
  try {
    const bytes = await readAtMostAsync(opened.fd, opened.size, bounds.maxBytes);
    if (bytes === null) return tooLarge(bounds.maxBytes, `more than ${bounds.maxBytes}`);
    return { ok: true, bytes, realPath: opened.realPath };
  } catch (error) {
    return failed(error);
  } finally {
    closeSync(opened.fd);
  }
}

/** readRegularFile, decoded as UTF-8. */
export function readRegularText(path: string, bounds: ReadBounds): RegularTextRead {
  const read = readRegularFile(path, bounds);
  return read.ok ? { ok: true, text: read.bytes.toString("utf8"), realPath: read.realPath } : read;
}

/** The checks of readRegularFile without reading: whether the file could be served now. */
export function checkRegularFile(path: string, bounds: ReadBounds): RegularFileCheck {
  return withRegularFile(path, bounds, (_fd, size, realPath) => ({ ok: true, size, realPath }));
}

const warned = new Set<string>();

/**
 * Says once per process, on stderr, that a config-like file was skipped and
 * why; a missing file is normal and never reported.
 */
export function warnSkippedFile(path: string, refused: RefusedRead): void {
  if (refused.reason === "missing") return;
  const key = `${path}\0${refused.reason}`;
  if (warned.has(key)) return;
  warned.add(key);
  process.stderr.write(`ctx: skipped ${path}: ${refused.detail}\n`);
}

function withRegularFile<T extends { ok: true }>(
  path: string,
  bounds: ReadBounds,
  use: (fd: number, size: number, realPath: string) => T | RefusedRead,
): T | RefusedRead {
  const opened = openRegularFile(path, bounds);
  if (!opened.ok) return opened;
  try {
    return use(opened.fd, opened.size, opened.realPath);
  } catch (error) {
    return failed(error);
  } finally {
    closeSync(opened.fd);
  }
}

/** The file opened for reading once every check passed; the caller closes `fd`. */
type OpenedFile = {
  readonly ok: true;
  readonly fd: number;
  readonly size: number;
  readonly realPath: string;
};

function openRegularFile(path: string, bounds: ReadBounds): OpenedFile | RefusedRead {
  // A first look that opens nothing: a device is never opened at all.
  let stats: Stats | undefined;
  try {
    stats = statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    return failed(error);
  }
  if (!stats) return refusal("missing", "it does not exist");
  const kind = refusedKind(stats);
  if (kind) return kind;
  if (stats.size > bounds.maxBytes) return tooLarge(bounds.maxBytes, String(stats.size));
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    return failed(error);
  }
  let refused: RefusedRead;
  try {
    const opened = fstatSync(fd);
    const realPath = descriptorPath(fd) ?? realpathSync(path);
    const swapped =
      refusedKind(opened) ??
      (opened.size > bounds.maxBytes ? tooLarge(bounds.maxBytes, String(opened.size)) : null) ??
      (bounds.root !== undefined && !isInside(bounds.root, realPath)
        ? refusal(
            "outside-root",
            `it leads outside ${bounds.root} (a symbolic link on its path points out)`,
          )
        : null);
    if (!swapped) return { ok: true, fd, size: opened.size, realPath };
    refused = swapped;
  } catch (error) {
    refused = failed(error);
  }
  closeSync(fd);
  return refused;
}

function refusedKind(stats: Stats): RefusedRead | null {
  if (stats.isFile()) return null;
  const what = stats.isDirectory()
    ? "a folder"
    : stats.isFIFO()
      ? "a FIFO (named pipe)"
      : stats.isSocket()
        ? "a socket"
        : stats.isCharacterDevice()
          ? "a character device (such as /dev/zero)"
          : stats.isBlockDevice()
            ? "a block device"
            : "not a plain file";
  return refusal("not-a-regular-file", `it is ${what}, not a regular file`);
}

function tooLarge(maxBytes: number, size: string): RefusedRead {
  return refusal("too-large", `it is ${size} bytes, over the ${maxBytes}-byte limit`);
}

function failed(error: unknown): RefusedRead {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return refusal("missing", "it does not exist");
  // Opening a unix socket fails with ENXIO: it is there, but not a file.
  if (code === "ENXIO") return refusal("not-a-regular-file", "it is a socket, not a regular file");
  return refusal("unreadable", `it cannot be read (${code ?? (error as Error).message})`);
}

function refusal(reason: ReadRefusal, detail: string): RefusedRead {
  return { ok: false, reason, detail };
}

/** Where an open descriptor's file really is (Linux); null where the system does not say. */
function descriptorPath(fd: number): string | null {
  if (process.platform !== "linux") return null;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

function isInside(root: string, realPath: string): boolean {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return false;
  }
  const rel = relative(realRoot, realPath);
  return !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/**
 * At most maxBytes of the file, or null when it holds more (it may have grown
 * since it was measured). Reads `size + 1` first, so a file of the size it
 * claims takes one read and one more to see its end.
 */
function readAtMost(fd: number, size: number, maxBytes: number): Buffer | null {
  const parts: Buffer[] = [];
  for (
    let room = nextRoom(parts, size, maxBytes);
    room > 0;
    room = nextRoom(parts, size, maxBytes)
  ) {
    const part = Buffer.allocUnsafe(room);
    const read = readSync(fd, part, 0, room, null);
    if (read === 0) break;
    parts.push(read === room ? part : part.subarray(0, read));
  }
  return joined(parts, maxBytes);
}

async function readAtMostAsync(fd: number, size: number, maxBytes: number): Promise<Buffer | null> {
  const parts: Buffer[] = [];
  for (
    let room = nextRoom(parts, size, maxBytes);
    room > 0;
    room = nextRoom(parts, size, maxBytes)
  ) {
    const part = Buffer.allocUnsafe(room);
    const { bytesRead } = await readAsync(fd, part, 0, room, null);
    if (bytesRead === 0) break;
    parts.push(bytesRead === room ? part : part.subarray(0, bytesRead));
  }
  return joined(parts, maxBytes);
}

/** How much to read next: up to one byte past the limit, the claimed size + 1 first; 0 when done. */
function nextRoom(parts: readonly Buffer[], size: number, maxBytes: number): number {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const cap = maxBytes + 1;
  return total >= cap ? 0 : Math.min(cap - total, Math.max(size + 1 - total, 64 * 1024));
}

/** The parts as one buffer; null when they hold more than maxBytes. */
function joined(parts: readonly Buffer[], maxBytes: number): Buffer | null {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  if (total > maxBytes) return null;
  return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, total);
}
