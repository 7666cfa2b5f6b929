import { join } from "node:path";
import { checkRegularFile, FileRefusedError, readRegularText } from "../core/read-regular-file.js";
import type { Resource } from "../core/types.js";
import { mayServeFile, refuseSecretFile } from "./secret-guard.js";

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

/** A pinned file past this is not offered: it is meant to be read whole. */
const MAX_PINNED_BYTES = 1024 * 1024;

export interface PinnedFile {
  readonly resourceId: string;
  readonly root: string;
  /** Relative to the root. */
  readonly path: string;
  readonly absPath: string;
}

/**
 * The pinned files present at the top of each root: regular files whose real
 * path lies inside the root's (a README linked to a file outside the project
 * is left out), holding no secret unless `includeSecrets`.
 */
export function pinnedFiles(
  resources: readonly Pick<Resource, "id" | "root">[],
  includeSecrets = false,
): PinnedFile[] {
  const found: PinnedFile[] = [];
  for (const resource of resources) {
    for (const name of PINNED_NAMES) {
      const absPath = join(resource.root, name);
      const file = { root: resource.root, relPath: name, absPath };
      if (
        checkRegularFile(absPath, { maxBytes: MAX_PINNED_BYTES, root: resource.root }).ok &&
        mayServeFile(file, includeSecrets)
      ) {
        found.push({ resourceId: resource.id, root: resource.root, path: name, absPath });
      }
    }
  }
  return found;
}

/**
 * A pinned file's text, checked again as it is read: it may have been swapped
 * for a link out of the project, or a pipe, or come to hold secrets, since it
 * was listed.
 */
export function readPinnedFile(pinned: PinnedFile, includeSecrets = false): string {
  const read = readRegularText(pinned.absPath, { maxBytes: MAX_PINNED_BYTES, root: pinned.root });
  if (!read.ok) throw new FileRefusedError(pinned.path, read);
  const file = { root: pinned.root, relPath: pinned.path, absPath: pinned.absPath };
  refuseSecretFile(file, read.text, includeSecrets);
  return read.text;
}
