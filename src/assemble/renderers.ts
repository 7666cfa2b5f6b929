import { UsageError } from "../core/errors.js";
import type { ContextFragment, DetailDepth } from "../core/fragment.js";
import type { StrategyRun } from "../core/provenance.js";
import type { RankBreakdown, RankExplanation, RankFeature } from "../core/rank-signals.js";
import { jsonText, visibleLine, visibleText } from "../text/visible-text.js";

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
  const errors = run.errors.map(visibleLine);
  if (run.status !== "ran") {
    const why = {
      "no-backend": "a backend it needs is missing",
      "breaker-open": "its circuit breaker is open",
      declined: "it declined (confidence 0)",
      disabled: "disabled in settings",
    }[run.status];
    return `${visibleLine(run.name)}: skipped, ${why}${errors.length > 0 ? ` (${errors.join("; ")})` : ""}`;
  }
  const fallback = run.fallback ? " (fallback)" : "";
  const errorList = errors.length > 0 ? `, errors: ${errors.join("; ")}` : "";
  return (
    `${visibleLine(run.name)}${fallback}: confidence ${run.confidence.toFixed(2)} × quality ${run.quality.toFixed(2)}, ` +
    `allocated ${run.allocated} tokens, returned ${run.used} in ${run.fragments} fragments ` +
    `(${run.totalFragments} found), ${Math.round(run.executionTimeMs)} ms, breaker ${run.breaker}${errorList}`
  );
}

/**
 * A fragment's label on one line (a markdown heading, an XML attribute): its source, and for a
 * commit who made it when, and why. Every part from the repository is a visible line, so a name
 * holding a newline cannot start a heading of its own.
 */
function headingOf(fragment: ContextFragment): string {
  const { source } = fragment;
  if (source.kind !== "commit") return visibleLine(sourceLabel(fragment));
  const made = [source.date.slice(0, 10), source.author].filter((part) => part.length > 0);
  return visibleLine(
    `${sourceLabel(fragment)}${made.length > 0 ? ` (${made.join(", ")})` : ""}: ${oneLine(source.subject)}`,
  );
}

/** The fence's info string: a language name from our own table, or none if anything else. */
function languageOf(fragment: ContextFragment): string {
  if (fragment.source.kind !== "file" || fragment.source.language === "text") return "";
  return /^[\w+#.-]+$/.test(fragment.source.language) ? fragment.source.language : "";
}

/**
 * A fence that no line of `content` can close. CommonMark closes a backtick fence only with a
 * line of at least as many backticks (after up to three spaces, before nothing but spaces), and
 * tildes never close it: a fence longer than the longest backtick run anywhere in the content
 * (at least three) leaves every line inside.
 */
function fenceFor(content: string): string {
  let longest = 2;
  for (const run of content.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  return "`".repeat(longest + 1);
}

function markdownRenderer({ explain, runs }: RenderOptions): Renderer {
  const preamble = explain
    ? `> Provenance: which strategies ran and what they returned\n${runs.map((run) => `> - ${describeRun(run)}\n`).join("")}\n`
    : "";
  return {
    format: "markdown",
    prefix: (task) => `# Context for: ${visibleLine(taskHeading(task))}\n\n${preamble}`,
    block: (fragment) => {
      const symbol = fragment.symbol ? ` — ${visibleLine(fragment.symbol)}` : "";
      const depth = fragment.detailDepth === "full" ? "" : `, ${fragment.detailDepth} only`;
      const by = explain ? `, ${visibleLine(fragment.strategy)}, ${fragment.tier}${depth}` : depth;
      // Control characters shown, not run: an ESC or CR in a file must not reach a terminal raw.
      const content = visibleText(fragment.content);
      const fence = fenceFor(content);
      const context =
        explain && fragment.context
          ? `> context: ${visibleLine(oneLine(fragment.context))}\n\n`
          : "";
      const ranking =
        explain && fragment.ranking?.length
          ? `> ranked: ${visibleLine(fragment.ranking.join("; "))}\n\n`
          : "";
      const scored =
        explain && fragment.rank ? `> score: ${scoreLine(fragment.rank, fragment.score)}\n\n` : "";
      const model =
        explain && fragment.rank?.model
          ? `> features: ${featureLine(fragment.rank.model)}\n\n`
          : "";
      return (
        `## ${headingOf(fragment)}${symbol} (score ${formatScore(fragment.score)}${by})\n\n${context}${scored}${ranking}${model}` +
        `${fence}${languageOf(fragment)}\n${content}\n${fence}\n`
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
            `<strategy name="${xmlAttribute(run.name)}" status="${run.status}">${xmlText(describeRun(run))}</strategy>\n`,
        )
        .join("")}</provenance>\n`
    : "";
  return {
    format: "xml",
    prefix: (task) => `<context task="${xmlAttribute(taskHeading(task))}">\n${preamble}`,
    block: (fragment) => {
      const { source } = fragment;
      const where =
        source.kind === "file"
          ? ` path="${xmlAttribute(source.path)}" lines="${source.startLine}-${source.endLine}"`
          : source.kind === "commit"
            ? ` commit="${xmlAttribute(source.sha)}" date="${xmlAttribute(source.date)}" author="${xmlAttribute(source.author)}" subject="${xmlAttribute(source.subject)}"${source.path ? ` path="${xmlAttribute(source.path)}"` : ""}`
            : ` source="${xmlAttribute(sourceLabel(fragment))}"`;
      const symbol = fragment.symbol ? ` symbol="${xmlAttribute(fragment.symbol)}"` : "";
      const depth = fragment.detailDepth === "full" ? "" : ` depth="${fragment.detailDepth}"`;
      const by = explain
        ? ` strategy="${xmlAttribute(fragment.strategy)}" tier="${fragment.tier}"`
        : "";
      const context =
        explain && fragment.context ? ` context="${xmlAttribute(oneLine(fragment.context))}"` : "";
      const ranking =
        explain && fragment.ranking?.length
          ? ` ranking="${xmlAttribute(fragment.ranking.join("; "))}"`
          : "";
      const scored =
        explain && fragment.rank
          ? ` score-parts="${xmlAttribute(scoreLine(fragment.rank, fragment.score))}"`
          : "";
      const model =
        explain && fragment.rank?.model
          ? ` features="${xmlAttribute(featureLine(fragment.rank.model))}"`
          : "";
      return `<fragment id="${xmlAttribute(fragment.id)}"${where}${symbol} score="${formatScore(fragment.score)}"${depth}${by}${context}${scored}${ranking}${model}>${cdata(fragment.content)}</fragment>\n`;
    },
    separator: "",
    suffix: () => "</context>\n",
  };
}

function jsonRenderer({ explain, runs }: RenderOptions): Renderer {
  // jsonText, not JSON.stringify: the same values, with no control or bidirectional character left raw.
  const provenance = explain ? `"provenance":${jsonText({ strategies: runs })},` : "";
  return {
    format: "json",
    prefix: (task, budget, tokensUsed) =>
      `{"task":${jsonText(taskHeading(task))},"budget":${budget},"tokensUsed":${tokensUsed},${provenance}"fragments":[`,
    block: (fragment) => {
      const { source } = fragment;
      const file = source.kind === "file";
      return jsonText({
        id: fragment.id,
        path: file ? source.path : sourceLabel(fragment),
        startLine: file ? source.startLine : 0,
        endLine: file ? source.endLine : 0,
        score: Number(formatScore(fragment.score)),
        tokens: fragment.tokens,
        depth: DEPTH_NAMES[fragment.detailDepth],
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
              scoreParts: fragment.rank
                ? {
                    by: fragment.rank.by,
                    base: fragment.rank.base,
                    rules: fragment.rank.rules,
                    placed: fragment.rank.placed ?? null,
                  }
                : null,
              features: fragment.rank?.model?.features ?? null,
              contributions: fragment.rank?.model?.contributions ?? null,
            }
          : {}),
      });
    },
    separator: ",",
    suffix: () => "]}\n",
  };
}

/**
 * How the ranking stage reached the score: `model 0.73`, `strategy 0.50 ×
 * other-role 0.5 = 0.25`, with `, placed by best-file-head` where a placement
 * rule set it.
 */
function scoreLine(rank: RankBreakdown, score: number): string {
  const rules = rank.rules.map((rule) => ` × ${rule.rule} ${rule.factor}`).join("");
  const total = rules ? ` = ${formatScore(score)}` : "";
  const placed = rank.placed ? `, placed by ${rank.placed} at ${formatScore(score)}` : "";
  return `${rank.by} ${formatScore(rank.base)}${rules}${placed ? "" : total}${placed}`;
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

/** The longest task heading, in characters: a pasted log or a long issue must not eat the budget. */
export const TASK_HEADING_MAX_CHARS = 200;

/**
 * What the answer's header shows of the task: its first line that holds
 * anything, cut to TASK_HEADING_MAX_CHARS with "…". The whole task is still
 * what is searched; repeating a pasted 8 KB log in the header would spend the
 * budget on the one text the caller already has.
 */
export function taskHeading(task: string): string {
  const first = task.split(/\r\n|\r|\n/).find((line) => line.trim() !== "") ?? "";
  const line = oneLine(first);
  if (line.length <= TASK_HEADING_MAX_CHARS)
    return first.trim() === task.trim() ? line : `${line} …`;
  // Never split a surrogate pair at the cut.
  const head = Array.from(line).slice(0, TASK_HEADING_MAX_CHARS).join("");
  return `${head}…`;
}

/** A fragment's detail depth as JSON names it: the whole body, its signature (and doc), or its outline. */
const DEPTH_NAMES: Record<DetailDepth, "body" | "signature" | "outline"> = {
  full: "body",
  signature: "signature",
  outline: "outline",
};

/**
 * Content as CDATA: code is full of `<`, `>` and `&`, and CDATA leaves it as written, where
 * entities would make a model read `a &lt; b &amp;&amp; c` (and count more tokens). Only `]]>`
 * ends a CDATA section, so it is split across two (`]]]]><![CDATA[>`), and the characters XML 1.0
 * forbids (C0 controls, lone surrogates, U+FFFE/U+FFFF) are visible escapes, as in markdown:
 * the fragment stays well-formed XML whatever the file holds. The newlines around the content
 * are the wrapping's, not the file's.
 */
function cdata(content: string): string {
  return `<![CDATA[\n${visibleText(content).replaceAll("]]>", "]]]]><![CDATA[>")}\n]]>`;
}

/** A one-line attribute value: hidden characters visible, then the five XML delimiters as entities. */
function xmlAttribute(text: string): string {
  return xmlText(visibleLine(text)).replaceAll('"', "&quot;").replaceAll("'", "&apos;");
}

/** Element text: markup delimiters as entities, hidden characters visible. */
function xmlText(text: string): string {
  return visibleText(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
