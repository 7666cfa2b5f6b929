import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The nearest folder at or above `folder` that holds `.git` (a folder, or the
 * file of a linked work tree or submodule); null when there is none. Found
 * without starting git, so a caller can tell where git's paths start.
 */
export function workTreeTop(folder: string): string | null {
  for (let at = folder; ; at = dirname(at)) {
    if (existsSync(join(at, ".git"))) return at;
    if (dirname(at) === at) return null;
  }
}
