import type { ChunkDraft, ChunkKind } from "../../core/types.js";
import type { ChunkLimits } from "./chunk-limits.js";
import type { LineText } from "./line-text.js";
import type { TokenMeter } from "./token-meter.js";

interface Draft {
  start: number;
  end: number;
  kind: ChunkKind;
  symbol: string;
  parent: number | null;
  header: string;
  /** Tokens of the header (0 without one); the chunk's total adds one for the newline. */
  headerTokens: number;
  defines: string[];
  /** Set only for pieces of one over-long line, which are not whole lines. */
  piece: string | null;
  /** Tokens of the content (header not included) when already measured, so it is not counted twice. */
  tokens: number | null;
}

interface Header {
  readonly text: string;
  readonly tokens: number;
}

const NO_HEADER: Header = { text: "", tokens: 0 };

export interface PushOptions {
  readonly kind: ChunkKind;
  readonly symbol: string;
  readonly parent: number | null;
  /** Shown before every part after the first when the span has to be split. */
  readonly continuationHeader: string;
}

/**
 * Collects chunks over a document's lines, keeps every line covered (blank runs
 * join a neighbour), splits spans over the token limit into consecutive parts
 * that repeat a header, and finally merges small adjacent siblings.
 */
export class DraftBuilder {
  private readonly drafts: Draft[] = [];
  private pendingFrom: number | null = null;

  constructor(
    private readonly text: LineText,
    private readonly limits: ChunkLimits,
    private readonly meter: TokenMeter,
    /**
     * Neighbours that together stay under this many tokens merge whatever
     * their own size (SQL's statements); 0 keeps definitions apart.
     */
    private readonly mergeSiblingsUpTo = 0,
  ) {}

  get lastIndex(): number | null {
    return this.drafts.length === 0 ? null : this.drafts.length - 1;
  }

  /** Blank lines: appended to the chunk just before them, or to the next one. */
  blank(start: number, end: number): void {
    const last = this.drafts[this.drafts.length - 1];
    if (last && last.end === start - 1 && this.canGrow(last, end - start + 1)) {
      last.end = end;
      // Each blank line is at most one more token.
      if (last.tokens !== null) last.tokens += end - start + 1;
    } else {
      this.pendingFrom ??= start;
    }
  }

  private canGrow(draft: Draft, lines: number): boolean {
    if (draft.piece !== null) return false;
    const tokens =
      draft.tokens ??
      this.meter.measureLines(this.text, draft.start, draft.end, this.limits.maxTokens);
    return (
      tokens + lines <=
      this.limits.maxTokens - (draft.header.length > 0 ? this.limits.maxTokens / 4 : 0)
    );
  }

  /** Adds the span start..end, split when too large; returns the index of its first part. */
  push(start: number, end: number, options: PushOptions): number {
    const from = this.pendingFrom ?? start;
    this.pendingFrom = null;
    const first = this.drafts.length;
    const { maxTokens } = this.limits;
    const tokens = this.meter.measureLines(this.text, from, end, maxTokens);
    if (tokens <= maxTokens) {
      this.add(from, end, options, NO_HEADER, null, tokens);
      return first;
    }
    const text = this.fitHeader(options.continuationHeader);
    const header = { text, tokens: text.length > 0 ? this.meter.measure(text, maxTokens) : 0 };
    const budget = maxTokens - (text.length > 0 ? header.tokens + 1 : 0);
    this.splitInto(from, end, maxTokens, budget, options, header);
    return first;
  }

  /** Chunks in line order, merged and with content and token counts. */
  finish(): ChunkDraft[] {
    if (this.pendingFrom !== null) {
      const pending = this.pendingFrom;
      this.pendingFrom = null;
      this.blank(pending, this.text.count);
    }
    const merged = this.mergeSmallSiblings();
    const { maxTokens } = this.limits;
    return merged.map((draft) => {
      const content = draft.piece ?? this.text.slice(draft.start, draft.end);
      // Every draft was checked against the limit when it was made; this only
      // prices it, exactly where the estimate is not clearly under the limit.
      const contentTokens =
        draft.tokens ??
        (draft.piece !== null
          ? this.meter.measurePiece(draft.piece, maxTokens)
          : this.meter.measureLines(this.text, draft.start, draft.end, maxTokens));
      const tokens = contentTokens + (draft.header.length > 0 ? draft.headerTokens + 1 : 0);
      return {
        startLine: draft.start,
        endLine: draft.end,
        kind: draft.kind,
        symbol: draft.symbol,
        parent: draft.parent,
        content,
        header: draft.header,
        defines: draft.defines,
        tokens,
      };
    });
  }

  private add(
    start: number,
    end: number,
    options: PushOptions,
    header: Header,
    piece: string | null,
    tokens: number | null,
  ): void {
    this.drafts.push({
      tokens,
      start,
      end,
      kind: options.kind,
      symbol: options.symbol,
      parent: options.parent,
      header: header.text,
      headerTokens: header.tokens,
      defines: [],
      piece,
    });
  }

  /** A header longer than a quarter of the limit is cut to its first line. */
  private fitHeader(header: string): string {
    if (header.length === 0) return "";
    const quarter = this.limits.maxTokens / 4;
    if (this.meter.measure(header, this.limits.maxTokens) <= quarter) return header;
    const firstLine = header.split("\n")[0] ?? "";
    return this.meter.measure(firstLine, this.limits.maxTokens) <= quarter ? firstLine : "";
  }

  private splitInto(
    start: number,
    end: number,
    firstBudget: number,
    laterBudget: number,
    options: PushOptions,
    header: Header,
  ): void {
    let partStart = start;
    let estimate = 0;
    let lastBlank = -1;
    const flush = (partEnd: number) => {
      const isFirst = partStart === start;
      this.addChecked(
        partStart,
        partEnd,
        isFirst ? firstBudget : laterBudget,
        options,
        isFirst ? NO_HEADER : header,
      );
      partStart = partEnd + 1;
      estimate = 0;
      lastBlank = -1;
    };
    for (let line = start; line <= end; line++) {
      const text = this.text.lines[line - 1] ?? "";
      const cost = this.text.estimate(line, line) + 1;
      // Parts sized by the safe estimate need no exact count (addChecked confirms it cheaply).
      const budget = this.meter.safeEstimate(partStart === start ? firstBudget : laterBudget);
      if (estimate + cost > budget && line > partStart) {
        // Prefer to cut after a blank line in the last quarter of the part.
        const cut = lastBlank >= partStart + (line - partStart) * 0.75 ? lastBlank : line - 1;
        flush(cut);
        for (let replay = partStart; replay < line; replay++) {
          estimate += this.text.estimate(replay, replay) + 1;
        }
      }
      estimate += cost;
      if (text.trim().length === 0) lastBlank = line;
    }
    if (partStart <= end) flush(end);
  }

  /** Adds a part after an exact check, halving it (or cutting its one line) when the estimate was low. */
  private addChecked(
    start: number,
    end: number,
    budget: number,
    options: PushOptions,
    header: Header,
  ): void {
    const tokens = this.meter.measureLines(this.text, start, end, budget);
    if (tokens <= budget) {
      this.add(start, end, options, header, null, tokens);
      return;
    }
    if (start < end) {
      const middle = Math.floor((start + end) / 2);
      this.addChecked(start, middle, budget, options, header);
      this.addChecked(middle + 1, end, budget, options, header);
      return;
    }
    for (const piece of this.meter.cut(this.text.lines[start - 1] ?? "", budget)) {
      // A run of blanks inside the line is nothing to find (the line holds more than blanks).
      if (piece.text.trim().length === 0) continue;
      // Priced again in finish(), against the whole limit rather than this part's budget.
      this.add(start, end, options, header, piece.text, null);
    }
  }

  private mergeSmallSiblings(): Draft[] {
    const referenced = new Set<number>();
    for (const draft of this.drafts) if (draft.parent !== null) referenced.add(draft.parent);
    const { minTokens, maxTokens } = this.limits;
    const out: Draft[] = [];
    const newIndex: number[] = [];
    let lastSize = 0;
    let lastOriginal = -1;
    this.drafts.forEach((draft, index) => {
      const size = this.text.estimate(draft.start, draft.end);
      const last = out[out.length - 1];
      const candidate =
        last !== undefined &&
        last.parent === draft.parent &&
        last.end + 1 === draft.start &&
        last.piece === null &&
        draft.piece === null &&
        last.header === "" &&
        draft.header === "" &&
        !referenced.has(lastOriginal) &&
        !referenced.has(index) &&
        // Two small chunks merge, and small loose code joins a neighbour; two real
        // definitions of any size stay apart so each keeps its own name.
        ((lastSize < minTokens && size < minTokens) ||
          (last.kind === "code" && lastSize < minTokens) ||
          (draft.kind === "code" && size < minTokens) ||
          lastSize + size <= this.mergeSiblingsUpTo) &&
        lastSize + size <= maxTokens;
      const mergedTokens =
        candidate && last
          ? this.meter.measureLines(this.text, last.start, draft.end, maxTokens)
          : maxTokens + 1;
      if (mergedTokens <= maxTokens && last) {
        absorb(last, draft);
        last.tokens = mergedTokens;
        lastSize += size;
      } else {
        out.push({ ...draft, defines: [...draft.defines] });
        lastSize = size;
      }
      newIndex[index] = out.length - 1;
      lastOriginal = index;
    });
    for (const draft of out) {
      if (draft.parent !== null) draft.parent = newIndex[draft.parent] ?? null;
    }
    return out;
  }
}

/** Merges `next` into `into`: the first named definition names the chunk. */
function absorb(into: Draft, next: Draft): void {
  into.end = next.end;
  if (next.kind === "code") return;
  if (into.kind === "code") {
    into.kind = next.kind;
    into.symbol = next.symbol;
  } else if (next.symbol !== "") {
    into.defines.push(next.symbol);
  }
  into.defines.push(...next.defines);
}
