import {
  type IndexReport,
  SKIP_REASONS,
  type SkipCounts,
  type SkippedFile,
} from "../core/types.js";

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/** Every reason, zero or not, so nothing skipped goes unmentioned. */
export function formatSkipped(skipped: SkipCounts): string {
  return SKIP_REASONS.map((reason) => `${reason} ${skipped[reason]}`).join(", ");
}

export function formatIndexReport(report: IndexReport, indexPath: string): string {
  const roots = report.resources
    .map((resource) => `${resource.root} (${resource.kind})`)
    .join(", ");
  const files = report.added + report.changed + report.unchanged;
  return [
    `Indexed ${roots}: ${files} files — ${report.added} added, ${report.changed} changed, ` +
      `${report.removed} removed, ${report.unchanged} unchanged; ${report.chunks} chunks written ` +
      `in ${(report.elapsedMs / 1000).toFixed(2)} s`,
    `Skipped: ${formatSkipped(report.skipped)}`,
    ...secretFilesLines(report.secretFiles),
    ...longPathLines(report.longPaths),
    ...report.missingRoots.map(missingRootLine),
    ...cutFilesLines(report.cutFiles),
    `Index: ${indexPath}`,
  ].join("\n");
}

/** Skipped files named a reason in `ctx status` and `ctx index --verbose` (`--json` has all stored). */
export const SKIPPED_FILES_SHOWN = 5;

/**
 * One line a reason: `too-large: uv.lock (1.2 MB), …, and 3 more`. Secret
 * files and paths too long have lines of their own; a reason counted but not
 * named (an index written before names were kept) gets no line.
 */
export function skippedFilesLines(
  skipped: SkipCounts,
  files: readonly SkippedFile[],
  indent: string,
): string[] {
  const lines: string[] = [];
  for (const reason of SKIP_REASONS) {
    if (reason === "secret" || reason === "path-too-long" || skipped[reason] === 0) continue;
    const named = files.filter((file) => file.reason === reason);
    if (named.length === 0) continue;
    const shown = named
      .slice(0, SKIPPED_FILES_SHOWN)
      .map(
        (file) =>
          `${visible(file.path)}${file.bytes === null ? "" : ` (${formatBytes(file.bytes)})`}`,
      );
    const more = skipped[reason] - shown.length;
    lines.push(`${indent}${reason}: ${shown.join(", ")}${more > 0 ? `, and ${more} more` : ""}`);
  }
  return lines;
}

/** Secret files named in `ctx index`'s report, at most this many (`ctx status --json` has all). */
const SECRET_FILES_SHOWN = 10;

/** The files kept out for holding secrets, by name with what showed it, and how to let them in. */
function secretFilesLines(byRoot: IndexReport["secretFiles"]): string[] {
  const several = byRoot.length > 1;
  const named = byRoot.flatMap(({ root, files }) =>
    // JSON-escaped: a file name is the repository's to choose, control characters included.
    files.map((file) => `${visible(several ? `${root}/${file.path}` : file.path)} (${file.found})`),
  );
  if (named.length === 0) return [];
  const more = named.length - SECRET_FILES_SHOWN;
  return [
    `Not indexed, holding secrets: ${named.slice(0, SECRET_FILES_SHOWN).join(", ")}${more > 0 ? `, and ${more} more (ctx status --json lists them)` : ""}`,
    "  (never served or sent to a model; [index] include_secrets = true in your own config indexes them)",
  ];
}

/** Files indexed in part, named in `ctx index`'s report: at most this many. */
const CUT_FILES_SHOWN = 10;

/** The files indexed for their first part only, each with how much of it. */
function cutFilesLines(byRoot: IndexReport["cutFiles"]): string[] {
  const several = byRoot.length > 1;
  const named = byRoot.flatMap(({ root, files }) =>
    files.map(
      (file) =>
        `${visible(several ? `${root}/${file.path}` : file.path)} (the first ${formatBytes(file.indexedBytes)} of ${formatBytes(file.size)})`,
    ),
  );
  if (named.length === 0) return [];
  const more = named.length - CUT_FILES_SHOWN;
  return [
    `Indexed in part, too large to index whole: ${named.slice(0, CUT_FILES_SHOWN).join(", ")}${more > 0 ? `, and ${more} more` : ""}`,
  ];
}

/** Paths too long to open, named in `ctx index`'s report: at most this many, each shortened. */
const LONG_PATHS_SHOWN = 5;
/** Characters kept of a long path's start and of its end: its name and the folder it is in. */
const LONG_PATH_ENDS = 40;

/** The files and folders left out for a path the system cannot open, shortened in the middle. */
function longPathLines(byRoot: IndexReport["longPaths"]): string[] {
  const several = byRoot.length > 1;
  const named = byRoot.flatMap(({ root, paths }) =>
    paths.map((path) => {
      const full = several ? `${root}/${path}` : path;
      return visible(
        full.length > 2 * LONG_PATH_ENDS + 1
          ? `${full.slice(0, LONG_PATH_ENDS)}…${full.slice(-LONG_PATH_ENDS)}`
          : full,
      );
    }),
  );
  if (named.length === 0) return [];
  const more = named.length - LONG_PATHS_SHOWN;
  return [
    `Not indexed, path too long to open: ${named.slice(0, LONG_PATHS_SHOWN).join(", ")}${more > 0 ? `, and ${more} more` : ""}`,
    "  (past the system's limit for a whole path; a folder, ending in /, holds what could not be listed: index from a shorter root, or move them higher up)",
  ];
}

function visible(path: string): string {
  return JSON.stringify(path).slice(1, -1);
}

/** What a user reads about a root the index covers whose folder is gone. */
export function missingRootLine(root: string): string {
  return `Missing: ${root} is gone; its files stay as last indexed (index its new place with \`ctx index PATH\`, or drop it with \`ctx index --forget ${root}\`)`;
}
