import { visibleText } from "../text/visible-text.js";
import { VERSION } from "../version.js";

/**
 * Text made safe inside HTML elements and attribute values: markup delimiters as entities, and
 * control and bidirectional characters as visible escapes, so a name cannot reorder or hide
 * what the page shows.
 */
export function escapeHtml(text: string): string {
  return visibleText(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A share of a whole as a CSS width, never below a sliver when the part is not zero. */
export function widthOf(part: number, whole: number): string {
  if (whole <= 0 || part <= 0) return "0%";
  return `${Math.max(0.4, Math.min(100, (100 * part) / whole)).toFixed(2)}%`;
}

/** Colours for strategies, in the order they are first met. */
const PALETTE = ["#3b6fd8", "#d8793b", "#3ba55c", "#9b59b6", "#c0392b", "#16a085", "#7f8c8d"];

export function colourFor(names: readonly string[]): (name: string) => string {
  return (name) => PALETTE[Math.max(0, names.indexOf(name)) % PALETTE.length] as string;
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d232b;background:#fff}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px}
.meta{color:#5a6572}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{border-bottom:1px solid #e3e7ec;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f5f7f9;font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.bar{display:flex;height:28px;border:1px solid #c9d1da;border-radius:4px;overflow:hidden;background:#f5f7f9}
.seg{position:relative;height:100%;overflow:hidden}
.seg .used{height:100%}
.seg .back{position:absolute;top:0;right:0;height:100%;background:repeating-linear-gradient(45deg,#fff8,#fff8 4px,#0000 4px,#0000 8px)}
.legend{display:flex;flex-wrap:wrap;gap:12px;margin-top:6px;font-size:12px}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px}
.badge{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px;white-space:nowrap}
.included{background:#dff3e4}.over-budget{background:#fde8d7}.duplicate{background:#e8e8f8}
.below-cut{background:#f3f0d7}.timed-out{background:#f8dcdc}
pre{background:#f5f7f9;border:1px solid #e3e7ec;padding:12px;overflow:auto;white-space:pre-wrap;font-size:12px}
.chart-row{display:flex;align-items:center;gap:8px;margin:2px 0}
.chart-label{width:190px;font-size:12px}.chart-bar{height:16px;border-radius:2px}
details{margin:6px 0}summary{cursor:pointer}
`;

/**
 * A whole page: inline styles only, no script, and a content security policy
 * that forbids loading anything, so opening the file never touches a network.
 */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
<p class="meta">Written by Context Engine ${escapeHtml(VERSION)}. This file loads nothing from anywhere.</p>
</body>
</html>
`;
}
