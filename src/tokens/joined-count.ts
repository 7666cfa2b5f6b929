import type { TokenCounter } from "../core/token-counter.js";
import { firstPieceBoundary, lastPieceBoundary } from "./piece-boundaries.js";

/** A piece of a text, with its exact count when known. */
export interface CountedPart {
  readonly text: string;
  readonly tokens?: number;
}

/**
 * The exact count of the parts joined, counting again only what lies between
 * piece boundaries around the joins: of a part whose count is known, only its
 * first and last lines. Packing counts each fragment's text, then its block
 * (a heading and fences around the same text), then the whole answer: that was
 * two thirds of a query's token counting. Counters whose counts do not add up
 * at piece boundaries count the joined text.
 */
export function countJoined(counter: TokenCounter, parts: readonly CountedPart[]): number {
  if (!counter.additiveAtPieceBoundaries) {
    return counter.count(parts.map((part) => part.text).join(""));
  }
  let total = 0;
  // Text since the last piece boundary, not counted yet.
  let open = "";
  for (const { text, tokens } of parts) {
    const first = tokens === undefined ? null : firstPieceBoundary(text);
    const last = first === null ? null : lastPieceBoundary(text);
    if (tokens === undefined || first === null || last === null) {
      open += text;
      continue;
    }
    const head = text.slice(0, first);
    const tail = text.slice(last);
    // The part is head, middle, tail split at boundaries; the middle's count is what is left of its own.
    total += counter.count(open + head) + tokens - counter.count(head) - counter.count(tail);
    open = tail;
  }
  return total + (open === "" ? 0 : counter.count(open));
}
