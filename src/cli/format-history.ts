import type { HistoryReport } from "../history/ingest-history.js";

const count = (n: number) => n.toLocaleString("en-US");

/** One line per git checkout: what the run read of its history, and what is stored. */
export function formatHistory(reports: readonly HistoryReport[], roots: number): string {
  return reports
    .map((report) => {
      const where = roots > 1 ? ` of ${report.root}` : "";
      const span =
        report.first && report.last ? `, ${day(report.first)} … ${day(report.last)}` : "";
      const stored = `${count(report.commits)} ${report.commits === 1 ? "commit" : "commits"} stored${span}`;
      if (report.error) return `History${where}: not read (${report.error}); ${stored}\n`;
      if (report.head === null) return `History${where}: no commits yet\n`;
      const changes = [
        `${count(report.added)} ${report.added === 1 ? "commit" : "commits"} added`,
        ...(report.removed > 0 ? [`${count(report.removed)} removed`] : []),
      ].join(", ");
      const rewritten = report.rewritten ? " (HEAD left the history read before)" : "";
      return `History${where}: ${changes} in ${(report.elapsedMs / 1000).toFixed(1)} s${rewritten}; ${stored}\n`;
    })
    .join("");
}

function day(date: string): string {
  return date.slice(0, 10);
}
