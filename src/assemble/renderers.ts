import { UsageError } from "../core/errors.js";
import type { ContextFragment } from "../core/fragment.js";

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

export function rendererFor(format: string): Renderer {
  switch (format) {
    case "markdown":
      return markdownRenderer;
    case "xml":
      return xmlRenderer;
    case "json":
      return jsonRenderer;
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

/** Path and 1-based line range, "commit abc123" or "decision 42" for other sources. */
export function sourceLabel(fragment: ContextFragment): string {
  const { source } = fragment;
  switch (source.kind) {
    case "file":
      return `${source.path}:${source.startLine}-${source.endLine}`;
    case "commit":
      return `commit ${source.sha}`;
    case "decision":
      return `decision ${source.id}`;
  }
}

function formatScore(score: number): string {
  return (Math.round(score * 1000) / 1000).toFixed(3);
}

function languageOf(fragment: ContextFragment): string {
  return fragment.source.kind === "file" && fragment.source.language !== "text"
    ? fragment.source.language
    : "";
}

const markdownRenderer: Renderer = {
  format: "markdown",
  prefix: (task) => `# Context for: ${task.replace(/\s+/g, " ").trim()}\n\n`,
  block: (fragment) => {
    const symbol = fragment.symbol ? ` — ${fragment.symbol}` : "";
    // A fence longer than any backtick run inside keeps the content intact.
    const longestRun = Math.max(
      2,
      ...[...fragment.content.matchAll(/`+/g)].map((run) => run[0].length),
    );
    const fence = "`".repeat(longestRun + 1);
    return (
      `## ${sourceLabel(fragment)}${symbol} (score ${formatScore(fragment.score)})\n\n` +
      `${fence}${languageOf(fragment)}\n${fragment.content}\n${fence}\n`
    );
  },
  separator: "\n",
  suffix: (count) => (count === 0 ? "_No matching fragments._\n" : ""),
};

const xmlRenderer: Renderer = {
  format: "xml",
  prefix: (task) => `<context task="${escapeAttribute(task)}">\n`,
  block: (fragment) => {
    const { source } = fragment;
    const where =
      source.kind === "file"
        ? ` path="${escapeAttribute(source.path)}" lines="${source.startLine}-${source.endLine}"`
        : ` source="${escapeAttribute(sourceLabel(fragment))}"`;
    const symbol = fragment.symbol ? ` symbol="${escapeAttribute(fragment.symbol)}"` : "";
    // Content stays raw for the model to read; only a closing tag inside is defused.
    const content = fragment.content.replaceAll("</fragment>", "<\\/fragment>");
    return `<fragment id="${escapeAttribute(fragment.id)}"${where}${symbol} score="${formatScore(fragment.score)}">\n${content}\n</fragment>\n`;
  },
  separator: "",
  suffix: () => "</context>\n",
};

const jsonRenderer: Renderer = {
  format: "json",
  prefix: (task, budget, tokensUsed) =>
    `{"task":${JSON.stringify(task)},"budget":${budget},"tokensUsed":${tokensUsed},"fragments":[`,
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
    });
  },
  separator: ",",
  suffix: () => "]}\n",
};

function escapeAttribute(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll("\n", "&#10;");
}
