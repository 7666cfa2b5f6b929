import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { CtxError } from "../core/errors.js";

/** A path a client asked for lies outside the project, or is malformed. */
export class PathOutsideProjectError extends CtxError {
  constructor(requested: string, why: string) {
    super(
      "path_refused",
      `refused path ${JSON.stringify(requested)}: ${why}; give a path relative to the project root`,
    );
  }
}

export interface PathInRoot {
  readonly root: string;
  /** Relative to the root, `/`-separated. */
  readonly relPath: string;
  readonly absPath: string;
}

/**
 * Resolves a client-supplied path against the project roots, refusing NUL
 * bytes, `..` escapes (also percent-encoded), absolute paths outside every
 * root, and symbolic links that lead out of the root.
 */
export function resolveInsideRoots(roots: readonly string[], requested: string): PathInRoot {
  if (requested.includes("\0"))
    throw new PathOutsideProjectError(requested, "it contains a NUL byte");
  if (requested.trim().length === 0) throw new PathOutsideProjectError(requested, "it is empty");
  let decoded = requested;
  try {
    decoded = decodeURIComponent(requested);
  } catch {
    throw new PathOutsideProjectError(requested, "it is not valid percent-encoding");
  }
  for (const root of roots) {
    const candidates = [requested, decoded];
    const inside = candidates.map((path) => within(root, path));
    if (inside.every((found) => found !== null))
      return confirmReal(root, inside[0] as string, requested);
  }
  throw new PathOutsideProjectError(requested, "it is outside the project's roots");
}

/** The path relative to root, or null when it leaves the root. */
function within(root: string, path: string): string | null {
  const absolute = isAbsolute(path) ? resolve(path) : resolve(root, path);
  const rel = relative(root, absolute);
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return rel;
}

/** Follows links: the real file must be inside the root's real path too. */
function confirmReal(root: string, rel: string, requested: string): PathInRoot {
  const absPath = resolve(root, rel);
  let real: string;
  try {
    real = realpathSync(absPath);
  } catch {
    // A missing file is reported by whoever reads it; the path itself is inside.
    return { root, relPath: rel.split(sep).join("/"), absPath };
  }
  const realRoot = realpathSync(root);
  const realRel = relative(realRoot, real);
  if (realRel === ".." || realRel.startsWith(`..${sep}`) || isAbsolute(realRel)) {
    throw new PathOutsideProjectError(requested, "a symbolic link on it leads outside the project");
  }
  return { root, relPath: rel.split(sep).join("/"), absPath };
}
