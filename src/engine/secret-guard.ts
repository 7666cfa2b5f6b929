import { readFileSync, realpathSync } from "node:fs";
import { relative, sep } from "node:path";
import { SecretFileRefusedError } from "../core/errors.js";
import type { Resource } from "../core/types.js";
import { findCertainSecretNow } from "../secrets/find-secrets.js";
import { isSecretFile } from "../secrets/secret-files.js";

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

/** The file's text, read for serving; throws SecretFileRefusedError for a file that holds secrets. */
export function readServedFile(file: ServedFile, includeSecrets: boolean): string {
  const text = readFileSync(file.absPath, "utf8");
  refuseSecretFile(file, text, includeSecrets);
  return text;
}

/** Whether a file may be offered (listed) to an agent; an unreadable one may not. */
export function mayServeFile(file: ServedFile, includeSecrets: boolean): boolean {
  try {
    readServedFile(file, includeSecrets);
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
