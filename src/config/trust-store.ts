import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ConfigError } from "../core/errors.js";
import { userConfigPath } from "./user-config-path.js";

/** A project config file the user trusts, as it was when they said so. */
export interface TrustedFile {
  /** Absolute path of the project's `ctx.toml`. */
  readonly path: string;
  /** SHA-256 of its bytes then: any edit makes it untrusted again. */
  readonly sha256: string;
  /** When it was trusted, ISO 8601. */
  readonly trustedAt: string;
}

/** What the trust list says, and why it could not be read when it could not. */
export interface TrustList {
  readonly file: string;
  readonly entries: readonly TrustedFile[];
  /** Set when the file exists but is unreadable or malformed: nothing counts as trusted then. */
  readonly problem: string | null;
}

/** Where the user's trust decisions are kept: beside their config file, never in a project. */
export function trustListPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dirname(userConfigPath(env)), "trusted.json");
}

export function sha256Of(bytes: string | Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function readTrustList(env: NodeJS.ProcessEnv = process.env): TrustList {
  const file = trustListPath(env);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    return { file, entries: [], problem: missing ? null : `cannot read ${file}` };
  }
  try {
    const data = JSON.parse(text) as { trusted?: unknown };
    if (!Array.isArray(data.trusted)) throw new Error("no trusted list");
    const entries = data.trusted.filter(isTrustedFile);
    if (entries.length !== data.trusted.length) throw new Error("malformed entry");
    return { file, entries, problem: null };
  } catch {
    return { file, entries: [], problem: `${file} is not a trust list ctx wrote` };
  }
}

/** True when the user trusted this file with exactly these contents. */
export function isTrusted(list: TrustList, path: string, sha256: string): boolean {
  return list.entries.some((entry) => entry.path === path && entry.sha256 === sha256);
}

/** Records the file's current contents as trusted (replacing an older record of the same path). */
export function addTrust(path: string, sha256: string, env: NodeJS.ProcessEnv): TrustedFile {
  const list = readWritable(env);
  const entry: TrustedFile = { path, sha256, trustedAt: new Date().toISOString() };
  writeTrustList(list.file, [...list.entries.filter((old) => old.path !== path), entry]);
  return entry;
}

/** Forgets a file's trust; false when it was not trusted. */
export function removeTrust(path: string, env: NodeJS.ProcessEnv): boolean {
  const list = readWritable(env);
  const left = list.entries.filter((entry) => entry.path !== path);
  if (left.length === list.entries.length) return false;
  writeTrustList(list.file, left);
  return true;
}

/** A malformed list is never overwritten: it may hold the user's decisions. */
function readWritable(env: NodeJS.ProcessEnv): TrustList {
  const list = readTrustList(env);
  if (list.problem) {
    throw new ConfigError(
      list.file,
      `${list.problem}; fix it or delete it, then run the command again`,
    );
  }
  return list;
}

function writeTrustList(file: string, entries: readonly TrustedFile[]): void {
  // Only the user reads or changes what they trust.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ trusted: entries }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

function isTrustedFile(value: unknown): value is TrustedFile {
  const entry = value as Partial<TrustedFile> | null;
  return (
    typeof entry?.path === "string" &&
    typeof entry.sha256 === "string" &&
    typeof entry.trustedAt === "string"
  );
}
