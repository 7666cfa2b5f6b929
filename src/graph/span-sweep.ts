/**
 * Spans added in order of their start (as a pre-order search finds them),
 * asked about positions in increasing order: is a position inside one?
 */
export class SpanSweep {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private next = 0;
  private readonly open: number[] = [];

  add(start: number, end: number): void {
    this.starts.push(start);
    this.ends.push(end);
  }

  contains(at: number): boolean {
    while (this.next < this.starts.length && (this.starts[this.next] as number) <= at) {
      this.open.push(this.ends[this.next] as number);
      this.next++;
    }
    for (let i = this.open.length - 1; i >= 0; i--) {
      if ((this.open[i] as number) <= at) this.open.splice(i, 1);
    }
    return this.open.length > 0;
  }
}
