import type { EvalReport } from "../eval/run-eval.js";
import { colourFor, escapeHtml, htmlPage, widthOf } from "./html-page.js";

/** Missed queries listed per ranking; the rest are counted. */
const MAX_MISSED_SHOWN = 200;

/**
 * One self-contained HTML page for `ctx eval --html`: each ranking's metrics
 * (Pass@k, nDCG@10, MRR@10, all in percent) as bars side by side, and for each
 * ranking the judged queries whose relevant units it left out of its top k.
 */
export function evalReportHtml(report: EvalReport, ks: readonly number[]): string {
  const reports = [report, ...report.compared];
  const colour = colourFor(reports.map((one) => one.strategy));
  const metrics: { name: string; value: (one: EvalReport) => number }[] = [
    ...ks.map((k) => ({ name: `Pass@${k}`, value: (one: EvalReport) => one.passAtK[k] ?? 0 })),
    { name: "nDCG@10", value: (one) => one.ndcgAt10 },
    { name: "MRR@10", value: (one) => one.mrrAt10 },
  ];
  const chart = metrics
    .map(
      (metric) => `<h3>${escapeHtml(metric.name)}</h3>
${reports
  .map(
    (
      one,
    ) => `<div class="chart-row" data-metric="${escapeHtml(metric.name)}" data-strategy="${escapeHtml(one.strategy)}" data-value="${metric.value(one)}">
<span class="chart-label">${escapeHtml(one.strategy)}</span>
<span class="chart-bar" style="width:${widthOf(metric.value(one), 100)};max-width:60%;background:${colour(one.strategy)}"></span>
<span>${metric.value(one).toFixed(2)}</span></div>`,
  )
  .join("\n")}`,
    )
    .join("\n");
  const table = `<table id="metrics"><thead><tr><th>ranking</th>${metrics
    .map((metric) => `<th>${escapeHtml(metric.name)}</th>`)
    .join("")}<th>missed</th><th>queries/s</th></tr></thead><tbody>
${reports
  .map(
    (one) =>
      `<tr data-strategy="${escapeHtml(one.strategy)}"><td>${escapeHtml(one.strategy)}</td>${metrics
        .map((metric) => `<td class="num">${metric.value(one).toFixed(2)}</td>`)
        .join(
          "",
        )}<td class="num">${one.missed.length}</td><td class="num">${one.queriesPerSecond}</td></tr>`,
  )
  .join("\n")}
</tbody></table>`;
  const missed = reports
    .map(
      (
        one,
      ) => `<details class="missed" data-strategy="${escapeHtml(one.strategy)}"${one === report ? " open" : ""}>
<summary>${escapeHtml(one.strategy)}: ${one.missed.length} of ${one.queries} queries missed (no relevant unit in the top ${Math.max(...ks)})</summary>
<table><thead><tr><th>query</th><th>text</th><th>relevant</th><th>ranked first instead</th></tr></thead><tbody>
${one.missed
  .slice(0, MAX_MISSED_SHOWN)
  .map(
    (query) =>
      `<tr class="missed-query"><td>${escapeHtml(query.id)}</td><td>${escapeHtml(query.text)}</td><td>${query.relevant.map(escapeHtml).join("<br>")}</td><td>${query.top.map(escapeHtml).join("<br>")}</td></tr>`,
  )
  .join("\n")}
</tbody></table>${one.missed.length > MAX_MISSED_SHOWN ? `<p>… and ${one.missed.length - MAX_MISSED_SHOWN} more</p>` : ""}
</details>`,
    )
    .join("\n");
  const body = `
<h1>Evaluation: ${escapeHtml(report.dataset)}</h1>
<p class="meta">${report.units} units, ${report.queries} judged queries; indexed in ${report.indexSeconds} s;
contexts: ${report.contexts ? escapeHtml(report.contexts.generator) : "none"}</p>
<h2>Metrics (percent)</h2>
${table}
<div id="chart">${chart}</div>
<h2>Queries each ranking missed</h2>
${missed}
`;
  return htmlPage(`ctx eval ${report.dataset}`, body);
}
