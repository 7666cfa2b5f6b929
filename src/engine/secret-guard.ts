import { realpathSync } from "node:fs";
import { relative, sep } from "node:path";
import { SecretFileRefusedError } from "../core/errors.js";
import { readRegularText } from "../core/read-regular-file.js";
import type { Resource } from "../core/types.js";
import { findCertainSecretNow } from "../secrets/find-secrets.js";
import { isSecretFile } from "../secrets/secret-files.js";

/** Past this a file is not read to be offered whole (pinned files are capped lower still). */
const MAX_SERVED_BYTES = 4 * 1024 * 1024;

/** A file about to be served to an agent, as a root and a path in it. */
export interface ServedFile {
  readonly root: string;
  /** Relative to the root, `/`-separated. */
  readonly relPath: string;
  readonly absPath: string;
}

/**
 * Why a file must not be served while secrets are not (`[index]
 * include_secrets` off), or null: its name (or the name of the file a link
 * leads to) is a secret file's, the last index run kept it out for its
 * content, or its text holds a credential now.
 */
export function secretInFile(
  file: ServedFile,
  text: string,
  resources: readonly Pick<Resource, "root" | "secretFiles">[] = [],
): string | null {
  if (isSecretFile(file.relPath) || isSecretFile(realRelPath(file))) return "file name";
  const recorded = resources
    .find((resource) => resource.root === file.root)
    ?.secretFiles.find((secret) => secret.path === file.relPath);
  if (recorded) return recorded.found;
  const found = findCertainSecretNow(text);
  return found ? found.kind : null;
}

/** Throws SecretFileRefusedError for a file that holds secrets, unless they are served. */
export function refuseSecretFile(
  file: ServedFile,
  text: string,
  includeSecrets: boolean,
  resources?: readonly Pick<Resource, "root" | "secretFiles">[],
): void {
  if (includeSecrets) return;
  const found = secretInFile(file, text, resources);
  if (found) throw new SecretFileRefusedError(file.relPath, found);
}

/**
 * Whether a file may be offered (listed) to an agent: a regular file inside
 * its root (bounded, never a pipe or a device) holding no secret unless they
 * are served.
 */
export function mayServeFile(file: ServedFile, includeSecrets: boolean): boolean {
  const read = readRegularText(file.absPath, { maxBytes: MAX_SERVED_BYTES, root: file.root });
  if (!read.ok) return false;
  try {
    refuseSecretFile(file, read.text, includeSecrets);
    return true;
  } catch {
    return false;
  }
}

/** Where a link leads, relative to the root's real path; the path itself when it is no link. */
function realRelPath(file: ServedFile): string {
  try {
    const rel = relative(realpathSync(file.root), realpathSync(file.absPath));
    return rel.split(sep).join("/");
  } catch {
    return file.relPath;
  }
}
