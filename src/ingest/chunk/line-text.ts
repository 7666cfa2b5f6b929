/** Token cost of one line (its newline not included). */
export type LineCost = (line: string) => number;

/** A document split into lines once, with helpers that keep line numbers 1-based. */
export class LineText {
  readonly lines: readonly string[];
  /** costPrefix[i] = cost of lines 1..i, one token per newline included. */
  private costPrefix: Float64Array | null = null;

  constructor(
    text: string,
    private readonly lineCost: LineCost,
  ) {
    const lines = text.split(/\r?\n/);
    // A final newline ends the last line; it does not start an empty one.
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    this.lines = lines;
  }

  get count(): number {
    return this.lines.length;
  }

  /** Lines start..end (1-based, inclusive) joined with newlines. */
  slice(start: number, end: number): string {
    return this.lines.slice(start - 1, end).join("\n");
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
