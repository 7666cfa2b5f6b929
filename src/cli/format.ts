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
    `Index: ${indexPath}`,
  ].join("\n");
}
