import { type IndexReport, SKIP_REASONS, type SkipCounts } from "../core/types.js";

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
    ...report.missingRoots.map(missingRootLine),
    `Index: ${indexPath}`,
  ].join("\n");
}

/** What a user reads about a root the index covers whose folder is gone. */
export function missingRootLine(root: string): string {
  return `Missing: ${root} is gone; its files stay as last indexed (index its new place with \`ctx index PATH\`, or drop it with \`ctx index --forget ${root}\`)`;
}
