import { UsageError } from "../core/errors.js";
import type { ContextFragment } from "../core/fragment.js";
import type { RankExplanation, RankFeature } from "../core/rank-signals.js";
import type { StrategyRun } from "../strategies/provenance.js";

export const OUTPUT_FORMATS = ["markdown", "xml", "json"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * Renders assembled context as text: a prefix, one block per fragment joined by
 * a separator, and a suffix. Blocks are independent so the packer can count
 * each once; `tokensUsed` is only known at the end, so it is an argument.
 */
export interface Renderer {
  readonly format: OutputFormat;
  prefix(task: string, budget: number, tokensUsed: number): string;
  block(fragment: ContextFragment): string;
  readonly separator: string;
  suffix(fragmentCount: number): string;
}

export interface RenderOptions {
  /** Add the provenance preamble and each fragment's strategy. */
  readonly explain: boolean;
  /** What each strategy did, for the preamble. */
  readonly runs: readonly StrategyRun[];
}

const PLAIN: RenderOptions = { explain: false, runs: [] };

export function rendererFor(format: string, options: RenderOptions = PLAIN): Renderer {
  switch (format) {
    case "markdown":
      return markdownRenderer(options);
    case "xml":
      return xmlRenderer(options);
    case "json":
      return jsonRenderer(options);
    default:
      throw new UsageError(`unknown format "${format}"; use one of: ${OUTPUT_FORMATS.join(", ")}`);
  }
}

export function renderAll(
  renderer: Renderer,
  task: string,
  budget: number,
  tokensUsed: number,
  fragments: readonly ContextFragment[],
): string {
  return (
    renderer.prefix(task, budget, tokensUsed) +
    fragments.map((fragment) => renderer.block(fragment)).join(renderer.separator) +
    renderer.suffix(fragments.length)
  );
}

/** Path and 1-based line range, "commit abc1234" or "plan 42" (its decisions) for other sources. */
export function sourceLabel(fragment: ContextFragment): string {
  const { source } = fragment;
  switch (source.kind) {
    case "file":
      return `${source.path}:${source.startLine}-${source.endLine}`;
    case "commit":
      return `commit ${source.sha.slice(0, 7)}`;
    case "decision":
      return `plan ${source.id}`;
  }
}

export function formatScore(score: number): string {
  return (Math.round(score * 1000) / 1000).toFixed(3);
}

/** One line per strategy: what it was given, what it returned, what went wrong. */
export function describeRun(run: StrategyRun): string {
  if (run.status !== "ran") {
    const why = {
      "no-backend": "a backend it needs is missing",
      "breaker-open": "its circuit breaker is open",
      declined: "it declined (confidence 0)",
      disabled: "disabled in settings",
    }[run.status];
    return `${run.name}: skipped, ${why}${run.errors.length > 0 ? ` (${run.errors.join("; ")})` : ""}`;
  }
  const fallback = run.fallback ? " (fallback)" : "";
  const errors = run.errors.length > 0 ? `, errors: ${run.errors.join("; ")}` : "";
  return (
    `${run.name}${fallback}: confidence ${run.confidence.toFixed(2)} × quality ${run.quality.toFixed(2)}, ` +
    `allocated ${run.allocated} tokens, returned ${run.used} in ${run.fragments} fragments ` +
    `(${run.totalFragments} found), ${Math.round(run.executionTimeMs)} ms, breaker ${run.breaker}${errors}`
  );
}

/** A fragment's markdown heading: its source, and for a commit who made it when, and why. */
function headingOf(fragment: ContextFragment): string {
  const { source } = fragment;
  if (source.kind !== "commit") return sourceLabel(fragment);
  const made = [source.date.slice(0, 10), source.author].filter((part) => part.length > 0);
  return `${sourceLabel(fragment)}${made.length > 0 ? ` (${made.join(", ")})` : ""}: ${oneLine(source.subject)}`;
}

function languageOf(fragment: ContextFragment): string {
  return fragment.source.kind === "file" && fragment.source.language !== "text"
    ? fragment.source.language
    : "";
}

function markdownRenderer({ explain, runs }: RenderOptions): Renderer {
  const preamble = explain
    ? `> Provenance: which strategies ran and what they returned\n${runs.map((run) => `> - ${describeRun(run)}\n`).join("")}\n`
    : "";
  return {
    format: "markdown",
    prefix: (task) => `# Context for: ${task.replace(/\s+/g, " ").trim()}\n\n${preamble}`,
    block: (fragment) => {
      const symbol = fragment.symbol ? ` — ${fragment.symbol}` : "";
      const depth = fragment.detailDepth === "full" ? "" : `, ${fragment.detailDepth} only`;
      const by = explain ? `, ${fragment.strategy}, ${fragment.tier}${depth}` : depth;
      // A fence longer than any backtick run inside keeps the content intact.
      const longestRun = Math.max(
        2,
        ...[...fragment.content.matchAll(/`+/g)].map((run) => run[0].length),
      );
      const fence = "`".repeat(longestRun + 1);
      const context =
        explain && fragment.context ? `> context: ${oneLine(fragment.context)}\n\n` : "";
      const ranking =
        explain && fragment.ranking?.length ? `> ranked: ${fragment.ranking.join("; ")}\n\n` : "";
      const model =
        explain && fragment.ranked ? `> features: ${featureLine(fragment.ranked)}\n\n` : "";
      return (
        `## ${headingOf(fragment)}${symbol} (score ${formatScore(fragment.score)}${by})\n\n${context}${ranking}${model}` +
        `${fence}${languageOf(fragment)}\n${fragment.content}\n${fence}\n`
      );
    },
    separator: "\n",
    suffix: (count) => (count === 0 ? "_No matching fragments._\n" : ""),
  };
}

function xmlRenderer({ explain, runs }: RenderOptions): Renderer {
  const preamble = explain
    ? `<provenance>\n${runs
        .map(
          (run) =>
            `<strategy name="${escapeAttribute(run.name)}" status="${run.status}">${escapeText(describeRun(run))}</strategy>\n`,
        )
        .join("")}</provenance>\n`
    : "";
  return {
    format: "xml",
    prefix: (task) => `<context task="${escapeAttribute(task)}">\n${preamble}`,
    block: (fragment) => {
      const { source } = fragment;
      const where =
        source.kind === "file"
          ? ` path="${escapeAttribute(source.path)}" lines="${source.startLine}-${source.endLine}"`
          : source.kind === "commit"
            ? ` commit="${source.sha}" date="${escapeAttribute(source.date)}" author="${escapeAttribute(source.author)}" subject="${escapeAttribute(source.subject)}"${source.path ? ` path="${escapeAttribute(source.path)}"` : ""}`
            : ` source="${escapeAttribute(sourceLabel(fragment))}"`;
      const symbol = fragment.symbol ? ` symbol="${escapeAttribute(fragment.symbol)}"` : "";
      const depth = fragment.detailDepth === "full" ? "" : ` depth="${fragment.detailDepth}"`;
      const by = explain
        ? ` strategy="${escapeAttribute(fragment.strategy)}" tier="${fragment.tier}"`
        : "";
      const context =
        explain && fragment.context
          ? ` context="${escapeAttribute(oneLine(fragment.context))}"`
          : "";
      const ranking =
        explain && fragment.ranking?.length
          ? ` ranking="${escapeAttribute(fragment.ranking.join("; "))}"`
          : "";
      const model =
        explain && fragment.ranked
          ? ` features="${escapeAttribute(featureLine(fragment.ranked))}"`
          : "";
      // Content stays raw for the model to read; only a closing tag inside is defused.
      const content = fragment.content.replaceAll("</fragment>", "<\\/fragment>");
      return `<fragment id="${escapeAttribute(fragment.id)}"${where}${symbol} score="${formatScore(fragment.score)}"${depth}${by}${context}${ranking}${model}>\n${content}\n</fragment>\n`;
    },
    separator: "",
    suffix: () => "</context>\n",
  };
}

function jsonRenderer({ explain, runs }: RenderOptions): Renderer {
  const provenance = explain ? `"provenance":${JSON.stringify({ strategies: runs })},` : "";
  return {
    format: "json",
    prefix: (task, budget, tokensUsed) =>
      `{"task":${JSON.stringify(task)},"budget":${budget},"tokensUsed":${tokensUsed},${provenance}"fragments":[`,
    block: (fragment) => {
      const { source } = fragment;
      const file = source.kind === "file";
      return JSON.stringify({
        id: fragment.id,
        path: file ? source.path : sourceLabel(fragment),
        startLine: file ? source.startLine : 0,
        endLine: file ? source.endLine : 0,
        score: Number(formatScore(fragment.score)),
        tokens: fragment.tokens,
        content: fragment.content,
        ...(source.kind === "commit"
          ? {
              commit: {
                sha: source.sha,
                date: source.date,
                author: source.author,
                subject: source.subject,
              },
            }
          : {}),
        // The working tree is the usual tier: only the others are named without --explain.
        ...(explain || fragment.tier !== "warm" ? { tier: fragment.tier } : {}),
        ...(explain
          ? {
              strategy: fragment.strategy,
              detailDepth: fragment.detailDepth,
              context: fragment.context ?? null,
              ranking: fragment.ranking ?? [],
              features: fragment.ranked?.features ?? null,
              contributions: fragment.ranked?.contributions ?? null,
            }
          : {}),
      });
    },
    separator: ",",
    suffix: () => "]}\n",
  };
}

/** The features that are not zero, each with its part of the score: `keyword 0.82 (+1.64)`. */
function featureLine(ranked: RankExplanation): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(ranked.features)) {
    if (value === 0) continue;
    const part = ranked.contributions[name as RankFeature];
    parts.push(`${name} ${round2(value)} (${part >= 0 ? "+" : "−"}${round2(Math.abs(part))})`);
  }
  return parts.join(", ");
}

function round2(value: number): string {
  return value.toFixed(2);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function escapeAttribute(text: string): string {
  return escapeText(text).replaceAll('"', "&quot;").replaceAll("\n", "&#10;");
}

function escapeText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
