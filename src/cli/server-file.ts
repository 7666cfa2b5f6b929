import { existsSync, lstatSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { PRIVATE_FILE_MODE } from "../core/private-files.js";
import { readRegularText } from "../core/read-regular-file.js";

/**
 * `.ctx/server.json`: where a running `ctx serve --http` for the project can be
 * reached, so that the prompt hook asks it instead of loading the engine in a
 * fresh process for every prompt. Written by the server (only the user can
 * read it: it may hold the server's token) and removed when the server stops.
 *
 * The file is a hint, never an authority: the hook uses it only when it is a
 * regular file of this user that no one else can read or write (git checks
 * files out 0644, so one committed to a repository is never used), the
 * process it names is alive, and its URL is a loopback address.
 */
export const SERVER_FILE = "server.json";

/** The most the file may hold: a URL, a token, a pid and a path. */
const SERVER_FILE_MAX_BYTES = 16 * 1024;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export interface ServerFile {
  /** The MCP endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** The bearer token the server asks for (CTX_MCP_TOKEN), or null when it asks for none. */
  readonly token: string | null;
  /** The serving process. */
  readonly pid: number;
  /** The project root it serves. */
  readonly root: string;
}

/** Where the server file of the project rooted at `root` lives. */
export function serverFilePath(root: string): string {
  return join(root, ".ctx", SERVER_FILE);
}

/** Whether a URL names this machine over plain HTTP (the only place the hook sends a prompt). */
export function isLoopbackUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" && LOOPBACK_HOSTS.has(parsed.hostname);
  } catch {
    return false;
  }
}

/**
 * Writes the server file for this process, readable by the user only; written
 * beside and renamed over, so a reader never sees half of it.
 */
export function writeServerFile(file: ServerFile): string {
  const path = serverFilePath(file.root);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(file)}\n`, { mode: PRIVATE_FILE_MODE, flag: "wx" });
  renameSync(temporary, path);
  return path;
}

/** Removes the server file if it still names this process (a newer server may have replaced it). */
export function removeServerFile(root: string): void {
  const found = readServerFile(root);
  if (found.ok && found.server.pid === process.pid) rmSync(serverFilePath(root), { force: true });
}

/**
 * The project root as `findProjectRoot` finds it first: the nearest folder
 * holding `.ctx` or `ctx.toml`. Null when there is none (the project has no
 * index yet, so no server either). Kept apart from the engine's look-up so
 * the hook can find a server without loading config code.
 */
export function nearestCtxRoot(start: string): string | null {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".ctx")) || existsSync(join(dir, "ctx.toml"))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

export type ServerFileRead =
  | { readonly ok: true; readonly server: ServerFile }
  | {
      readonly ok: false;
      /** `missing` and `stale` are normal (no server, or one that died); the others are worth a line. */
      readonly reason: "missing" | "stale" | "unsafe" | "invalid" | "off-loopback";
      readonly detail: string;
    };

/** The project's server file, checked (see SERVER_FILE) before anything in it is used. */
export function readServerFile(root: string): ServerFileRead {
  const path = serverFilePath(root);
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(path);
  } catch {
    return { ok: false, reason: "missing", detail: `${path} does not exist` };
  }
  const uid = process.getuid?.();
  if (!stats.isFile() || (uid !== undefined && stats.uid !== uid) || (stats.mode & 0o077) !== 0)
    return {
      ok: false,
      reason: "unsafe",
      detail: `${path} is not a regular file only this user can read and write`,
    };
  const read = readRegularText(path, { maxBytes: SERVER_FILE_MAX_BYTES, root: dirname(path) });
  if (!read.ok) return { ok: false, reason: "unsafe", detail: `${path}: ${read.detail}` };
  const server = parseServerFile(read.text);
  if (server === null || resolve(server.root) !== resolve(root))
    return {
      ok: false,
      reason: "invalid",
      detail: `${path} does not describe this project's server`,
    };
  if (!isLoopbackUrl(server.url))
    return {
      ok: false,
      reason: "off-loopback",
      detail: `${path} names ${server.url}, not a loopback address: not used`,
    };
  if (!isAlive(server.pid))
    return {
      ok: false,
      reason: "stale",
      detail: `the server ${path} names (pid ${server.pid}) is gone`,
    };
  return { ok: true, server };
}

function parseServerFile(text: string): ServerFile | null {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const { url, token, pid, root } = value;
    if (typeof url !== "string" || typeof root !== "string") return null;
    if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid <= 0) return null;
    if (token !== null && typeof token !== "string") return null;
    return { url, token, pid, root };
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: no such process; EPERM: another user's process holds the pid, so not our server.
    return false;
  }
}
