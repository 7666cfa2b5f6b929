import { readFileSync, statSync } from "node:fs";
import { CtxError, PathNotFoundError, UsageError } from "../core/errors.js";
import { parseFragmentId } from "../core/fragment-id.js";
import type { Resource } from "../core/types.js";
import { resolveInsideRoots } from "./safe-path.js";
import { refuseSecretFile } from "./secret-guard.js";

/** Refuse to read more than this from one file. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

export type FragmentAddress =
  | { readonly id: string }
  | { readonly path: string; readonly startLine?: number; readonly endLine?: number };

export interface FragmentText {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
}

/**
 * The current text of a fragment (by id: `resourceId:path#Lstart-Lend`, or
 * `path#Lstart-Lend` as an index of one root shows it, read from the first
 * root) or of a line range of a file, read from disk, only
 * inside the project's roots, and never from a file that holds secrets
 * unless `includeSecrets`.
 */
export function readFragment(
  resources: readonly Resource[],
  address: FragmentAddress,
  includeSecrets = false,
): FragmentText {
  let roots = resources.map((resource) => resource.root);
  let path: string;
  let startLine: number | undefined;
  let endLine: number | undefined;
  if ("id" in address) {
    const parsed = parseFragmentId(address.id);
    if (!parsed)
      throw new UsageError(
        `not a fragment id: ${JSON.stringify(address.id)} (expected path#Lstart-Lend or resourceId:path#Lstart-Lend)`,
      );
    if (parsed.resourceId !== null) {
      const resource = resources.find((candidate) => candidate.id === parsed.resourceId);
      if (!resource)
        throw new UsageError(`fragment ${address.id} belongs to no root of this index`);
      roots = [resource.root];
    }
    path = parsed.path;
    startLine = parsed.startLine;
    endLine = parsed.endLine;
  } else {
    path = address.path;
    startLine = address.startLine;
    endLine = address.endLine;
  }
  const target = resolveInsideRoots(roots, path);
  let size: number;
  try {
    const stats = statSync(target.absPath);
    if (!stats.isFile()) throw new UsageError(`${target.relPath} is not a file`);
    size = stats.size;
  } catch (error) {
    if (error instanceof CtxError) throw error;
    throw new PathNotFoundError(target.relPath, "file");
  }
  if (size > MAX_FILE_BYTES)
    throw new UsageError(
      `${target.relPath} is ${size} bytes, more than the ${MAX_FILE_BYTES} read_fragment serves`,
    );
  const text = readFileSync(target.absPath, "utf8");
  refuseSecretFile(target, text, includeSecrets, resources);
  const lines = text.split(/\r?\n/);
  const first = Math.max(1, startLine ?? 1);
  const last = Math.min(lines.length, endLine ?? lines.length);
  if (first > last)
    throw new UsageError(
      `lines ${first}-${last} are not in ${target.relPath} (${lines.length} lines)`,
    );
  return {
    path: target.relPath,
    startLine: first,
    endLine: last,
    text: lines.slice(first - 1, last).join("\n"),
  };
}
