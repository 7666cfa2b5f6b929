import type { RequestRecord } from "../engine/request-log.js";
import { visibleLine } from "../text/visible-text.js";

/**
 * The request in a few lines of text: what `ctx report` prints without --html or --json. Names
 * from the repository are visible lines, so none can add a line of its own.
 */
export function summaryOf(id: string, record: RequestRecord): string {
  const lines = [
    `request ${id} (${record.createdAt}): ${visibleLine(record.task)}`,
    `${record.tokensUsed} of ${record.budget} tokens, ${record.fragments.length} fragments from ${record.trace.length} candidates`,
  ];
  for (const run of record.provenance) {
    lines.push(
      `- ${run.name}: ${run.status}, allocated ${run.allocated}, used ${run.packedTokens} in the output, ${Math.round(run.executionTimeMs)} ms, breaker ${run.breaker}${run.errors.length > 0 ? `, errors: ${run.errors.map(visibleLine).join("; ")}` : ""}`,
    );
  }
  const left = record.trace.filter((row) => row.outcome !== "included");
  for (const row of left.slice(0, 20)) {
    lines.push(
      `  left out: ${visibleLine(row.id)} (${visibleLine(row.strategy)}): ${visibleLine(row.reason)}`,
    );
  }
  if (left.length > 20) lines.push(`  … and ${left.length - 20} more left out (--html shows all)`);
  return `${lines.join("\n")}\n`;
}
