import type { RequestRecord } from "../engine/request-log.js";
import type { CandidateOutcome } from "../engine/request-trace.js";
import { colourFor, escapeHtml, htmlPage, widthOf } from "./html-page.js";

const OUTCOME_WORDS: Record<CandidateOutcome, string> = {
  included: "included",
  "over-budget": "over budget",
  duplicate: "duplicate",
  "below-cut": "below the cut",
  "timed-out": "timed out",
};

/** One budget segment: a strategy's allotment, what of it reached the output, what it gave back. */
interface BudgetShare {
  readonly name: string;
  readonly allocated: number;
  readonly used: number;
}

/**
 * One self-contained HTML page about one request: the task; the budget as a
 * bar split by strategy (allocated, used in the output, given back to the
 * others); each strategy's timing, errors and breaker; every candidate with
 * its place, score, strategy, tier and depth, and why those left out were;
 * and the rendered context itself.
 */
export function requestReportHtml(id: string, record: RequestRecord): string {
  const ran = record.provenance.filter((run) => run.status === "ran");
  const hotTokens = record.fragments
    .filter((fragment) => fragment.tier === "hot")
    .reduce((sum, fragment) => sum + fragment.tokens, 0);
  const shares: BudgetShare[] = [
    ...(hotTokens > 0 ? [{ name: "hot tier", allocated: hotTokens, used: hotTokens }] : []),
    ...ran.map((run) => ({ name: run.name, allocated: run.allocated, used: run.packedTokens })),
  ];
  const colour = colourFor([
    ...shares.map((share) => share.name),
    ...record.provenance.map((run) => run.name),
  ]);
  const counts = new Map<CandidateOutcome, number>();
  for (const row of record.trace) counts.set(row.outcome, (counts.get(row.outcome) ?? 0) + 1);
  const leftOut = [...counts]
    .filter(([outcome]) => outcome !== "included")
    .map(([outcome, count]) => `${count} ${OUTCOME_WORDS[outcome]}`)
    .join(", ");
  const body = `
<h1>Context for: ${escapeHtml(record.task)}</h1>
<p class="meta">request ${escapeHtml(id)} · ${escapeHtml(record.createdAt)} · ${escapeHtml(record.format)} ·
${record.tokensUsed} of ${record.budget} tokens · ${record.fragments.length} fragments from
${record.trace.length} candidates${leftOut ? ` (${escapeHtml(leftOut)})` : ""}</p>

<h2>Budget</h2>
${budgetBar(shares, record.budget, record.tokensUsed, colour)}

<h2>Strategies</h2>
<table id="strategies">
<thead><tr><th>strategy</th><th>status</th><th>confidence × quality</th><th>allocated</th>
<th>used in output</th><th>given back</th><th>returned</th><th>time</th><th>breaker</th><th>errors</th></tr></thead>
<tbody>
${record.provenance
  .map(
    (run) => `<tr data-strategy="${escapeHtml(run.name)}">
<td><span class="swatch" style="background:${colour(run.name)}"></span>${escapeHtml(run.name)}${run.fallback ? " (fallback)" : ""}</td>
<td>${escapeHtml(run.status)}</td>
<td class="num">${run.confidence.toFixed(2)} × ${run.quality.toFixed(2)}</td>
<td class="num">${run.allocated}</td>
<td class="num">${run.packedTokens} (${run.packedFragments} fragments)</td>
<td class="num">${Math.max(0, run.allocated - run.packedTokens)}</td>
<td class="num">${run.used} tokens in ${run.fragments} (${run.totalFragments} found)</td>
<td class="num">${Math.round(run.executionTimeMs)} ms</td>
<td>${escapeHtml(run.breaker)}</td>
<td>${run.errors.map(escapeHtml).join("<br>")}</td>
</tr>`,
  )
  .join("\n")}
</tbody>
</table>

<h2>Candidates</h2>
<table id="candidates">
<thead><tr><th>outcome</th><th>path</th><th>lines</th><th>score</th><th>strategy</th><th>tier</th>
<th>depth</th><th>tokens</th><th>why</th></tr></thead>
<tbody>
${record.trace
  .map(
    (row) => `<tr class="candidate" data-outcome="${row.outcome}" data-id="${escapeHtml(row.id)}">
<td><span class="badge ${row.outcome}">${OUTCOME_WORDS[row.outcome]}</span></td>
<td>${escapeHtml(row.path)}</td>
<td class="num">${row.startLine > 0 ? `${row.startLine}–${row.endLine}` : ""}</td>
<td class="num">${row.score.toFixed(3)}</td>
<td>${escapeHtml(row.strategy)}</td>
<td>${row.tier}</td>
<td>${row.detailDepth}</td>
<td class="num">${row.tokens}</td>
<td class="reason">${escapeHtml(row.reason)}</td>
</tr>`,
  )
  .join("\n")}
</tbody>
</table>

<h2>The context as rendered</h2>
<pre id="context">${escapeHtml(record.output)}</pre>
`;
  return htmlPage(`ctx request ${id}: ${record.task}`, body);
}

function budgetBar(
  shares: readonly BudgetShare[],
  budget: number,
  tokensUsed: number,
  colour: (name: string) => string,
): string {
  const fragmentsUsed = shares.reduce((sum, share) => sum + share.used, 0);
  const segments = shares.map((share) => {
    const width = Math.max(share.allocated, share.used);
    const givenBack = Math.max(0, share.allocated - share.used);
    return `<div class="seg" data-strategy="${escapeHtml(share.name)}" data-allocated="${share.allocated}" data-used="${share.used}" data-given-back="${givenBack}" style="width:${widthOf(width, budget)}" title="${escapeHtml(share.name)}: allocated ${share.allocated}, used ${share.used}, given back ${givenBack}">
<div class="used" style="width:100%;background:${colour(share.name)}"></div>
<div class="back" style="width:${widthOf(givenBack, width)}"></div>
</div>`;
  });
  const legend = shares.map((share) => {
    const givenBack = Math.max(0, share.allocated - share.used);
    return `<span><span class="swatch" style="background:${colour(share.name)}"></span>${escapeHtml(share.name)}: allocated ${share.allocated}, used ${share.used}, given back ${givenBack}</span>`;
  });
  return `<div class="bar" id="budget-bar" data-budget="${budget}" data-tokens-used="${tokensUsed}">
${segments.join("\n")}
</div>
<div class="legend">${legend.join("\n")}
<span>headers and framing: ${Math.max(0, tokensUsed - fragmentsUsed)}</span>
<span>left unused: ${Math.max(0, budget - tokensUsed)} of ${budget}</span>
<span>hatched: given back to the others</span></div>`;
}
