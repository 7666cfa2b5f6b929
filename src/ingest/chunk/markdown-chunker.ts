import type { ChunkDraft } from "../../core/types.js";
import type { ChunkLimits } from "./chunk-limits.js";
import { DraftBuilder } from "./draft-builder.js";
import type { LineText } from "./line-text.js";
import type { TokenMeter } from "./token-meter.js";

interface Heading {
  readonly line: number;
  readonly level: number;
  readonly title: string;
  /** A setext heading's underline is part of its section's first lines. */
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SETEXT_H1 = /^ {0,3}=+[ \t]*$/;
const SETEXT_H2 = /^ {0,3}-+[ \t]*$/;

/**
 * Longer lines are never headings. ATX's lazy title backtracks over blank runs
 * (quadratic: "# x", a million spaces, "y" would take hours), and a heading
 * is repeated in every part of its section.
 */
const MAX_HEADING_CHARS = 1024;

/**
 * Chunks Markdown by headings: each section (a heading and the text up to the
 * next heading) is a chunk whose symbol is its heading chain ("Install > Linux"),
 * whose parent is the enclosing section, and whose continuation parts repeat the
 * chain. Headings inside fenced code blocks are ignored.
 */
export function chunkMarkdown(
  text: LineText,
  limits: ChunkLimits,
  meter: TokenMeter,
): ChunkDraft[] {
  const headings = findHeadings(text);
  const builder = new DraftBuilder(text, limits, meter);
  const open: { level: number; title: string; index: number | null }[] = [];
  const firstHeading = headings[0]?.line ?? text.count + 1;
  if (firstHeading > 1) {
    if (text.isBlank(1, firstHeading - 1)) builder.blank(1, firstHeading - 1);
    else
      builder.push(1, firstHeading - 1, {
        kind: "section",
        symbol: "",
        parent: null,
        continuationHeader: "",
      });
  }
  headings.forEach((heading, position) => {
    while (open.length > 0 && (open[open.length - 1] as { level: number }).level >= heading.level)
      open.pop();
    const chain = [...open.map((entry) => entry.title), heading.title].join(" > ");
    const parent = open.length > 0 ? (open[open.length - 1]?.index ?? null) : null;
    const end = (headings[position + 1]?.line ?? text.count + 1) - 1;
    const index = builder.push(heading.line, end, {
      kind: "section",
      symbol: chain,
      parent,
      continuationHeader: `${"#".repeat(heading.level)} ${chain}`,
    });
    open.push({ level: heading.level, title: heading.title, index });
  });
  return builder.finish();
}

function findHeadings(text: LineText): Heading[] {
  const headings: Heading[] = [];
  let fence: string | null = null;
  text.lines.forEach((line, index) => {
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1] as string;
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      return;
    }
    if (fence !== null || line.length > MAX_HEADING_CHARS) return;
    const atx = ATX.exec(line);
    if (atx) {
      headings.push({
        line: index + 1,
        level: (atx[1] as string).length,
        title: (atx[2] ?? "").trim(),
      });
      return;
    }
    const next = text.lines[index + 1];
    const previous = index > 0 ? text.lines[index - 1] : "";
    const isParagraphLine = line.trim().length > 0 && (previous ?? "").trim().length === 0;
    if (next !== undefined && isParagraphLine && (SETEXT_H1.test(next) || SETEXT_H2.test(next))) {
      headings.push({ line: index + 1, level: SETEXT_H1.test(next) ? 1 : 2, title: line.trim() });
    }
  });
  return headings;
}
