import type { RequestRecord } from "../engine/request-log.js";

/** The request in a few lines of text: what `ctx report` prints without --html or --json. */
export function summaryOf(id: string, record: RequestRecord): string {
  const lines = [
    `request ${id} (${record.createdAt}): ${record.task}`,
    `${record.tokensUsed} of ${record.budget} tokens, ${record.fragments.length} fragments from ${record.trace.length} candidates`,
  ];
  for (const run of record.provenance) {
    lines.push(
      `- ${run.name}: ${run.status}, allocated ${run.allocated}, used ${run.packedTokens} in the output, ${Math.round(run.executionTimeMs)} ms, breaker ${run.breaker}${run.errors.length > 0 ? `, errors: ${run.errors.join("; ")}` : ""}`,
    );
  }
  const left = record.trace.filter((row) => row.outcome !== "included");
  for (const row of left.slice(0, 20)) {
    lines.push(`  left out: ${row.id} (${row.strategy}): ${row.reason}`);
  }
  if (left.length > 20) lines.push(`  … and ${left.length - 20} more left out (--html shows all)`);
  return `${lines.join("\n")}\n`;
}
