import type { ContextFragment, DetailDepth } from "../core/fragment.js";
import { withLines } from "../core/fragment-id.js";
import { SYMBOL_KINDS } from "../core/graph.js";
import type { ChunkKind } from "../core/types.js";
import { indexTerms, queryTerms } from "../text/code-tokenizer.js";

/** Chunk kinds that are definitions: the graph's symbol kinds (constants are chunked as code). */
const DEFINITION_KINDS: ReadonlySet<ChunkKind> = new Set(
  SYMBOL_KINDS.filter((kind): kind is Exclude<typeof kind, "constant"> => kind !== "constant"),
);
/** A comment line (`#include`, `#define` and `#[attr]` are code). */
export const COMMENT_LINE = /^\s*(\/\/|\/\*|\*|#(?!include|define|\[)|--|;|"""|''')/;
const SIGNATURE_END = /[{:]\s*(\/\/.*|#.*)?$|=>\s*$|\)\s*(->\s*[^{]*)?$|=\s*$/;
const MAX_SIGNATURE_LINES = 6;
/** Chunks with no declaration of their own: their first line is wherever the chunker cut. */
const UNNAMED_KINDS: ReadonlySet<ChunkKind> = new Set(["code", "window"]);
/** C and C++ written GNU style: a line of return type and qualifiers, the name and parameters on the next. */
const RETURN_TYPE_ONLY = /^\s*(?:[A-Za-z_][\w<>,]*(?:::[A-Za-z_][\w<>,]*)*\s*\**\s*){1,4}$/;
const NAME_AND_PARAMETERS = /^\s*\**\s*[A-Za-z_~][\w:~]*\s*\(/;
const RETURN_TYPE_LANGUAGES: ReadonlySet<string> = new Set(["c", "cpp"]);
/** C#'s `[Fact]`, `[Obsolete("…")]` above a member: an attribute, as Java's `@Override` is. */
const ATTRIBUTE_LINE =
  /^\[\s*[A-Za-z_][\w.]*\s*(\(.*\))?\s*(,\s*[A-Za-z_][\w.]*\s*(\(.*\))?\s*)*\]$/;
const HEAD_LINES = 6;

/**
 * The fragment at a lower detail depth, as an exact sub-range of its lines:
 * `signature` keeps the leading doc comment and the declaration (and a Python
 * docstring); `outline` keeps the declaration line alone. Code with no
 * declaration of its own (loose code, a window, a later part of a definition
 * cut in parts) has none to keep: its lines that hold most of `focus` (the
 * task's terms) stand for it, or its first lines where none does. Null when
 * the reduced form would not be smaller, or the fragment is not a file range.
 */
export function reduceDetail(
  fragment: ContextFragment,
  depth: Exclude<DetailDepth, "full">,
  focus?: ReadonlySet<string>,
): ContextFragment | null {
  if (fragment.source.kind !== "file") return null;
  const lines = new TextLines(fragment.content);
  const undeclared = fragment.continued === true || UNNAMED_KINDS.has(fragment.chunkKind);
  const range =
    (undeclared && focus && focus.size > 0
      ? focusedRange(lines, focus, depth === "signature" ? HEAD_LINES : 1)
      : null) ??
    (depth === "signature"
      ? signatureRange(lines, fragment.chunkKind)
      : outlineRange(lines, fragment.chunkKind, fragment.source.language));
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

/**
 * The run of at most `size` lines holding the most of `focus` (distinct terms
 * a line, summed over the run), starting at a line that holds one; the first
 * such run on a tie. Null when no line holds any.
 */
function focusedRange(lines: TextLines, focus: ReadonlySet<string>, size: number): Range | null {
  const hits: number[] = [];
  for (let index = 0; index < lines.length; index++) {
    const terms = new Set(indexTerms(lines.at(index) ?? ""));
    let count = 0;
    for (const term of terms) if (focus.has(term)) count++;
    hits.push(count);
  }
  let best: Range | null = null;
  let bestHits = 0;
  for (let start = 0; start < hits.length; start++) {
    if ((hits[start] ?? 0) === 0) continue;
    let sum = 0;
    let end = start;
    for (let index = start; index < Math.min(hits.length, start + size); index++) {
      sum += hits[index] ?? 0;
      if ((hits[index] ?? 0) > 0) end = index;
    }
    if (sum > bestHits) {
      best = { start, end };
      bestHits = sum;
    }
  }
  return best;
}

/** What a fragment cut down for `task` keeps where it has no declaration: lines holding these terms. */
export function focusTerms(task: string): ReadonlySet<string> {
  return new Set(queryTerms(task));
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

function outlineRange(lines: TextLines, kind: ChunkKind, language: string): Range | null {
  const first = firstNonBlank(lines);
  if (first < 0) return null;
  if (!DEFINITION_KINDS.has(kind)) return { start: first, end: first };
  const line = declarationLine(lines, first);
  // `static int` alone names nothing: the name is on the next line.
  const typeOnly =
    RETURN_TYPE_LANGUAGES.has(language) &&
    RETURN_TYPE_ONLY.test(lines.at(line) ?? "") &&
    NAME_AND_PARAMETERS.test(lines.at(line + 1) ?? "");
  return { start: line, end: typeOnly ? line + 1 : line };
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
      trimmed.startsWith("#[") ||
      ATTRIBUTE_LINE.test(trimmed)
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
