import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Resource } from "../core/types.js";
import { mayServeFile } from "./secret-guard.js";

/** Files agents read first: a project's README and its instructions for agents. */
const PINNED_NAMES = [
  "README.md",
  "README",
  "README.rst",
  "README.txt",
  "AGENTS.md",
  "CLAUDE.md",
  "CONTRIBUTING.md",
  ".cursorrules",
];

export interface PinnedFile {
  readonly resourceId: string;
  readonly root: string;
  /** Relative to the root. */
  readonly path: string;
  readonly absPath: string;
}

/** The pinned files present at the top of each root (none that holds secrets, unless `includeSecrets`). */
export function pinnedFiles(
  resources: readonly Pick<Resource, "id" | "root">[],
  includeSecrets = false,
): PinnedFile[] {
  const found: PinnedFile[] = [];
  for (const resource of resources) {
    for (const name of PINNED_NAMES) {
      const absPath = join(resource.root, name);
      const file = { root: resource.root, relPath: name, absPath };
      if (existsSync(absPath) && statSync(absPath).isFile() && mayServeFile(file, includeSecrets)) {
        found.push({ resourceId: resource.id, root: resource.root, path: name, absPath });
      }
    }
  }
  return found;
}
