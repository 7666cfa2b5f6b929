import { statSync } from "node:fs";
import { CtxError, PathNotFoundError, UsageError } from "../core/errors.js";
import { parseFragmentId } from "../core/fragment-id.js";
import { FileRefusedError, readRegularFile } from "../core/read-regular-file.js";
import type { Resource } from "../core/types.js";
import { decodeText } from "../ingest/hydrate/decode-text.js";
import type { HydrationLimits } from "../ingest/hydrate/discover-files.js";
import { whyNotIndexed } from "../ingest/hydrate/would-index.js";
import { resolveInsideRoots } from "./safe-path.js";
import { refuseSecretFile } from "./secret-guard.js";

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
 * inside the project's roots and only of a file the index would read (not
 * ignored, not in `.git/` or another skipped folder, not binary, within the
 * size limit, holding no secret unless `[index] include_secrets`): what is
 * never indexed is never served.
 */
export async function readFragment(
  resources: readonly Resource[],
  address: FragmentAddress,
  limits: HydrationLimits,
): Promise<FragmentText> {
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
  try {
    if (statSync(target.absPath).isDirectory())
      throw new UsageError(`${target.relPath} is not a file`);
  } catch (error) {
    if (error instanceof CtxError) throw error;
    throw new PathNotFoundError(target.relPath, "file");
  }
  // A secret file's own refusal says more than "the index does not read it".
  refuseSecretFile(target, "", limits.includeSecrets, resources);
  const notIndexed = await whyNotIndexed(target.root, target.relPath, limits);
  if (notIndexed !== null)
    throw new FileRefusedError(target.relPath, { reason: "not-indexed", detail: notIndexed });
  // Checked again on the open file: it may have become a link out, or a pipe, meanwhile.
  const read = readRegularFile(target.absPath, {
    maxBytes: limits.maxFileBytes,
    root: target.root,
  });
  if (!read.ok) throw new FileRefusedError(target.relPath, read);
  const decoded = decodeText(read.bytes);
  if ("binary" in decoded)
    throw new FileRefusedError(target.relPath, {
      reason: "not-indexed",
      detail: "the index does not read it: it is a binary file",
    });
  refuseSecretFile(target, decoded.text, limits.includeSecrets, resources);
  const lines = decoded.text.split(/\r?\n/);
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
