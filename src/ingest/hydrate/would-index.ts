import { SKIP_REASONS, type SkipReason } from "../../core/types.js";
import { discoverFiles, type HydrationLimits } from "./discover-files.js";
import { SKIPPED_DIRECTORIES } from "./skip-rules.js";

/** Why indexing leaves a file out, by the reason discovery counts it under. */
const SKIP_EXPLANATIONS: Partial<Record<SkipReason, string>> = {
  ignored: "a .gitignore or .ctxignore ignores it",
  binary: "it is a binary file",
  "too-large": "it is over the per-file size limit ([hydration] max_file_bytes)",
  "over-total-limit": "it is over the total size limit",
  unreadable: "it is not a regular file, or cannot be read",
  "outside-root": "a symbolic link on it leads outside the project",
  "path-too-long": "its path is too long for the system to open",
  "agent-config": "it is an agent's config file that ctx init writes, not project content",
};

/**
 * Null when indexing would read the file at `relPath` (relative to `root`,
 * `/`-separated); otherwise why not, as the end of "refused X: …". Asks the
 * discovery indexing runs, scoped to the one path, so git's view of what is
 * ignored (or the folder walk's `.gitignore` rules), `.ctxignore`, skipped
 * folders, binary extensions and the size limit decide exactly as they do for
 * the index.
 */
export async function whyNotIndexed(
  root: string,
  relPath: string,
  limits: HydrationLimits,
): Promise<string | null> {
  const folders = relPath.split("/").slice(0, -1);
  const skippedFolder = folders.find(
    (name) => SKIPPED_DIRECTORIES.has(name) || limits.skipDirectories.includes(name),
  );
  if (skippedFolder !== undefined)
    return `the index does not read it: it is inside ${skippedFolder}/, a folder the index skips`;
  const found = await discoverFiles(root, limits, [relPath]);
  if (found.files.some((file) => file.relPath === relPath)) return null;
  for (const reason of SKIP_REASONS) {
    if (found.skipped[reason] > 0)
      return `the index does not read it: ${SKIP_EXPLANATIONS[reason] ?? `it is skipped (${reason})`}`;
  }
  // Not listed at all: ignored by git's rules, or (folder mode) by a .gitignore above it.
  return found.kind === "git"
    ? "the index does not read it: git ignores it (a .gitignore, .git/info/exclude or the global excludes file)"
    : "the index does not read it: a .gitignore ignores it";
}
