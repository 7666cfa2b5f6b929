/** Token cost of one line (its newline not included). */
export type LineCost = (line: string) => number;

/** A document split into lines once, with helpers that keep line numbers 1-based. */
export class LineText {
  readonly lines: readonly string[];
  /** Offset in the document of each line's first character. */
  private readonly starts: readonly number[];
  /** The document, when its lines can be cut from it as they are (no CRLF to normalize). */
  private readonly source: string | null;
  /** costPrefix[i] = cost of lines 1..i, one token per newline included. */
  private costPrefix: Float64Array | null = null;

  constructor(
    text: string,
    private readonly lineCost: LineCost,
  ) {
    const lines: string[] = [];
    const starts: number[] = [];
    let from = 0;
    for (;;) {
      const newline = text.indexOf("\n", from);
      starts.push(from);
      if (newline === -1) {
        lines.push(text.slice(from));
        break;
      }
      // CRLF ends a line like LF; the CR is not part of the line.
      const end = newline > from && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
      lines.push(text.slice(from, end));
      from = newline + 1;
    }
    // A final newline ends the last line; it does not start an empty one.
    if (lines.length > 1 && lines[lines.length - 1] === "") {
      lines.pop();
      starts.pop();
    }
    this.lines = lines;
    this.starts = starts;
    this.source = text.includes("\r\n") ? null : text;
  }

  get count(): number {
    return this.lines.length;
  }

  /** Lines start..end (1-based, inclusive) joined with newlines. */
  slice(start: number, end: number): string {
    const last = Math.min(end, this.lines.length);
    if (this.source === null || last < start || start < 1) {
      return this.lines.slice(start - 1, end).join("\n");
    }
    // A cut of the document itself: no array of lines to copy and join.
    const from = this.starts[start - 1] as number;
    const to = (this.starts[last - 1] as number) + (this.lines[last - 1] as string).length;
    return this.source.slice(from, to);
  }

  /** The summed line costs of lines start..end, from prefix sums: O(1) after the first call. */
  estimate(start: number, end: number): number {
    if (end < start) return 0;
    if (!this.costPrefix) {
      const prefix = new Float64Array(this.lines.length + 1);
      this.lines.forEach((line, index) => {
        prefix[index + 1] = (prefix[index] as number) + this.lineCost(line) + 1;
      });
      this.costPrefix = prefix;
    }
    const prefix = this.costPrefix;
    return (prefix[end] as number) - (prefix[start - 1] as number) - 1;
  }

  isBlank(start: number, end: number): boolean {
    for (let line = start; line <= end; line++) {
      if ((this.lines[line - 1] ?? "").trim().length > 0) return false;
    }
    return true;
  }
}

/** How many line breaks `source` holds from offset `from` up to (not including) `to`. */
export function newlinesBetween(source: string, from: number, to: number): number {
  let count = 0;
  for (let at = source.indexOf("\n", from); at >= 0 && at < to; at = source.indexOf("\n", at + 1))
    count++;
  return count;
}
