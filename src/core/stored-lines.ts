import type { StoredChunk } from "./types.js";

/** Comment and decorator lines that belong to the declaration below them. */
const LEADING_LINE = /^\s*(\/\/|\/\*|\*|#(?!include|define)|@|"""|'''|--|;)/;
const MAX_LEADING_LINES = 12;

/**
 * A file's text as its stored chunks hold it, line by line (the chunks hold the
 * file's lines exactly). Read from some of a file's chunks, it holds only their lines.
 */
export class StoredLines {
  private readonly lines = new Map<number, string>();
  private readonly chunks: readonly StoredChunk[];

  constructor(chunks: readonly StoredChunk[]) {
    this.chunks = chunks;
    for (const chunk of chunks) {
      chunk.content.split("\n").forEach((line, index) => {
        this.lines.set(chunk.startLine + index, line);
      });
    }
  }

  has(line: number): boolean {
    return this.lines.has(line);
  }

  /** Lines start..end; a line no chunk holds (a blank between chunks) reads as empty. */
  text(start: number, end: number): string {
    const out: string[] = [];
    for (let line = start; line <= end; line++) out.push(this.lines.get(line) ?? "");
    return out.join("\n");
  }

  chunkIdsIn(start: number, end: number): number[] {
    return this.chunks
      .filter((chunk) => chunk.startLine <= end && chunk.endLine >= start)
      .map((chunk) => chunk.id);
  }

  /** The first line of the comments and decorators right above `line`. */
  leadingStart(line: number): number {
    let start = line;
    while (
      start > 1 &&
      line - start < MAX_LEADING_LINES &&
      this.lines.has(start - 1) &&
      LEADING_LINE.test(this.lines.get(start - 1) ?? "")
    )
      start--;
    return start;
  }
}
