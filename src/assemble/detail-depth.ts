import type { ContextFragment, DetailDepth } from "../core/fragment.js";
import { withLines } from "../core/fragment-id.js";
import { SYMBOL_KINDS } from "../core/graph.js";
import type { ChunkKind } from "../core/types.js";

/** Chunk kinds that are definitions: the graph's symbol kinds (constants are chunked as code). */
const DEFINITION_KINDS: ReadonlySet<ChunkKind> = new Set(
  SYMBOL_KINDS.filter((kind): kind is Exclude<typeof kind, "constant"> => kind !== "constant"),
);
/** A comment line (`#include`, `#define` and `#[attr]` are code). */
export const COMMENT_LINE = /^\s*(\/\/|\/\*|\*|#(?!include|define|\[)|--|;|"""|''')/;
const SIGNATURE_END = /[{:]\s*(\/\/.*|#.*)?$|=>\s*$|\)\s*(->\s*[^{]*)?$|=\s*$/;
const MAX_SIGNATURE_LINES = 6;
const HEAD_LINES = 6;

/**
 * The fragment at a lower detail depth, as an exact sub-range of its lines:
 * `signature` keeps the leading doc comment and the declaration (and a Python
 * docstring); `outline` keeps the declaration line alone. Null when the
 * reduced form would not be smaller, or the fragment is not a file range.
 */
export function reduceDetail(
  fragment: ContextFragment,
  depth: Exclude<DetailDepth, "full">,
): ContextFragment | null {
  if (fragment.source.kind !== "file") return null;
  const lines = new TextLines(fragment.content);
  const range =
    depth === "signature"
      ? signatureRange(lines, fragment.chunkKind)
      : outlineRange(lines, fragment.chunkKind);
  if (!range || range.end - range.start + 1 >= lines.length) return null;
  const { source } = fragment;
  const startLine = source.startLine + range.start;
  const endLine = source.startLine + range.end;
  return {
    ...fragment,
    id: withLines(fragment.id, startLine, endLine),
    source: { ...source, startLine, endLine },
    content: lines.range(range.start, range.end),
    detailDepth: depth,
    nodeId: fragment.nodeId,
  };
}

/** 0-based inclusive line range within the fragment. */
interface Range {
  readonly start: number;
  readonly end: number;
}

/**
 * A text's lines, split only as far as they are read: a reduced form looks at
 * the first few lines of a chunk, and splitting every hit's whole text into
 * lines cost a query more than the rest of reducing it.
 */
class TextLines {
  /** Where each line read so far starts; the next line starts after the last one's end. */
  private readonly starts: number[] = [0];
  readonly length: number;

  constructor(private readonly text: string) {
    let count = 1;
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
    this.length = count;
  }

  /** Line `index` (0-based), or undefined past the last. */
  at(index: number): string | undefined {
    if (index < 0 || index >= this.length) return undefined;
    const from = this.startOf(index);
    const end = this.text.indexOf("\n", from);
    return this.text.slice(from, end < 0 ? this.text.length : end);
  }

  /** Lines `first` to `last` (inclusive) as one text. */
  range(first: number, last: number): string {
    const from = this.startOf(first);
    const end = last + 1 < this.length ? this.startOf(last + 1) - 1 : this.text.length;
    return this.text.slice(from, end);
  }

  private startOf(index: number): number {
    while (this.starts.length <= index) {
      const previous = this.starts[this.starts.length - 1] as number;
      this.starts.push(this.text.indexOf("\n", previous) + 1);
    }
    return this.starts[index] as number;
  }
}

function signatureRange(lines: TextLines, kind: ChunkKind): Range | null {
  const first = firstNonBlank(lines);
  if (first < 0) return null;
  if (!DEFINITION_KINDS.has(kind))
    return { start: first, end: Math.min(lines.length - 1, first + HEAD_LINES - 1) };
  const declaration = declarationLine(lines, first);
  let end = declaration;
  while (
    end < lines.length - 1 &&
    end - declaration < MAX_SIGNATURE_LINES - 1 &&
    !SIGNATURE_END.test(lines.at(end) ?? "")
  )
    end++;
  // A Python docstring right after the signature belongs to it.
  const next = lines.at(end + 1)?.trim() ?? "";
  const quote = next.startsWith('"""') ? '"""' : next.startsWith("'''") ? "'''" : null;
  if (quote) {
    let close = end + 1;
    const opensAndCloses = next.length > 3 && next.endsWith(quote);
    if (!opensAndCloses) {
      close++;
      while (close < lines.length && !(lines.at(close) ?? "").includes(quote)) close++;
    }
    if (close < lines.length && close - end <= 12) end = close;
  }
  return { start: first, end };
}

function outlineRange(lines: TextLines, kind: ChunkKind): Range | null {
  const first = firstNonBlank(lines);
  if (first < 0) return null;
  const line = DEFINITION_KINDS.has(kind) ? declarationLine(lines, first) : first;
  return { start: line, end: line };
}

/** The first line that is not a comment or decorator: where the declaration starts. */
function declarationLine(lines: TextLines, from: number): number {
  let inBlockComment = false;
  for (let index = from; index < lines.length; index++) {
    const line = lines.at(index) ?? "";
    const trimmed = line.trim();
    if (inBlockComment) {
      if (trimmed.includes("*/")) inBlockComment = false;
      continue;
    }
    if (trimmed.startsWith("/*") && !trimmed.includes("*/")) {
      inBlockComment = true;
      continue;
    }
    if (
      trimmed === "" ||
      COMMENT_LINE.test(line) ||
      trimmed.startsWith("@") ||
      trimmed.startsWith("#[")
    )
      continue;
    return index;
  }
  return from;
}

function firstNonBlank(lines: TextLines): number {
  for (let index = 0; index < lines.length; index++)
    if ((lines.at(index) as string).trim().length > 0) return index;
  return -1;
}
