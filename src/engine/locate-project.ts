import { existsSync, lstatSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { PROJECT_CONFIG_FILE } from "../config/load-config.js";
import type { ResolvedConfig } from "../config/resolved-config.js";
import { PathNotFoundError, UsageError } from "../core/errors.js";
import { isPostgresUrl, maskUrl } from "../store/postgres/connection-errors.js";

/**
 * The project a command works on: the nearest folder at or above `start` that
 * holds a `.ctx` folder or a `ctx.toml`; failing that, the nearest git checkout;
 * failing that, `start` itself.
 */
export function findProjectRoot(start: string): string {
  const from = resolve(start);
  if (!existsSync(from)) throw new PathNotFoundError(start);
  const base = statSync(from).isDirectory() ? from : dirname(from);
  const ctxRoot = nearestAncestor(
    base,
    (dir) => existsSync(join(dir, ".ctx")) || existsSync(join(dir, PROJECT_CONFIG_FILE)),
  );
  if (ctxRoot) return ctxRoot;
  return nearestAncestor(base, (dir) => existsSync(join(dir, ".git"))) ?? base;
}

/** The index file: `--db` as given (relative to the working folder), else the configured path under the root. */
export function indexPathFor(
  root: string,
  configuredPath: string,
  dbFlag: string | undefined,
  cwd: string,
): string {
  if (dbFlag !== undefined) return resolve(cwd, dbFlag);
  return isAbsolute(configuredPath) ? configuredPath : join(root, configuredPath);
}

/**
 * Where the index lives: `--db` (a file, relative to the working folder, or a
 * postgres:// URL), else `CTX_DATABASE_URL`, else `[store] url`, else the
 * configured file under the root.
 */
export function storeLocationFor(
  root: string,
  config: Pick<ResolvedConfig, "storePath" | "storeServer">,
  dbFlag: string | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
): string {
  if (dbFlag !== undefined && isPostgresUrl(dbFlag)) return dbFlag;
  if (dbFlag !== undefined) return indexPathFor(root, config.storePath, dbFlag, cwd);
  const url = env.CTX_DATABASE_URL || config.storeServer.url;
  if (url) {
    if (!isPostgresUrl(url)) {
      throw new UsageError(
        `CTX_DATABASE_URL must be a postgres:// URL, got ${maskUrl(url)}; unset it to use the index file`,
      );
    }
    return url;
  }
  return confinedToProject(root, indexPathFor(root, config.storePath, undefined, cwd));
}

/**
 * An index file under the project root must stay there when links are
 * followed: a repository that commits `.ctx` as a link would otherwise choose
 * where the index and its request logs are written. Paths outside the root
 * come only from the user (their config, a trusted project file) and are kept.
 */
export function confinedToProject(root: string, file: string): string {
  if (!isInside(resolve(root), resolve(file))) return file;
  let existing = file;
  while (!present(existing) && dirname(existing) !== existing) existing = dirname(existing);
  let real = "a missing place";
  try {
    real = realpathSync(existing);
    const realRoot = realpathSync(root);
    if (real === realRoot || isInside(realRoot, real)) return file;
  } catch {
    // A dangling link on the way is refused like one leading out.
  }
  throw new UsageError(
    `the index path ${file} leads outside the project through a symbolic link (to ${real}); ` +
      "remove the link, or choose the index with --db or [store] path in your own config",
  );
}

/** Present as an entry, a dangling link included (existsSync follows links). */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

function nearestAncestor(start: string, test: (dir: string) => boolean): string | null {
  for (let dir = start; ; dir = dirname(dir)) {
    if (test(dir)) return dir;
    if (dirname(dir) === dir) return null;
  }
}
