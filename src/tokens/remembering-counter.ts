import type { TokenCounter } from "../core/token-counter.js";

/**
 * Shorter texts (a heading, a fragment's first line) are counted afresh: that
 * costs about what looking them up does, and remembering them would push the
 * counts of whole chunks out of memory.
 */
const SHORT_TEXT = 256;

/**
 * The counter, remembering the counts of the texts it counted last: one query
 * counts a hit's text in each strategy that returns it and again when packing,
 * and the next query meets many of the same chunks. Counting a chunk exactly
 * costs some fifty times looking its text up.
 */
export function rememberingCounter(counter: TokenCounter, capacity = 4096): TokenCounter {
  // A count above some limit is kept too, as "more than": the next caller with a limit under it needs no more.
  const counts = new Map<string, { readonly tokens: number; readonly exact: boolean }>();
  const remember = (text: string, tokens: number, exact: boolean) => {
    counts.delete(text);
    if (counts.size >= capacity) {
      // Oldest first: a Map iterates in insertion order, and a hit is inserted again.
      const oldest = counts.keys().next();
      if (!oldest.done) counts.delete(oldest.value);
    }
    counts.set(text, { tokens, exact });
  };
  const recall = (text: string) => {
    const known = counts.get(text);
    if (known) {
      counts.delete(text);
      counts.set(text, known);
    }
    return known;
  };
  return {
    name: counter.name,
    count(text: string): number {
      if (text.length < SHORT_TEXT) return counter.count(text);
      const known = recall(text);
      if (known?.exact) return known.tokens;
      const tokens = counter.count(text);
      remember(text, tokens, true);
      return tokens;
    },
    countUpTo(text: string, limit: number): number {
      if (text.length < SHORT_TEXT) return counter.countUpTo?.(text, limit) ?? counter.count(text);
      const known = recall(text);
      if (known && (known.exact || known.tokens > limit)) return known.tokens;
      if (!counter.countUpTo) return this.count(text);
      const tokens = counter.countUpTo(text, limit);
      remember(text, tokens, tokens <= limit);
      return tokens;
    },
    ...(counter.vocabulary ? { vocabulary: counter.vocabulary.bind(counter) } : {}),
    ...(counter.additiveAtPieceBoundaries ? { additiveAtPieceBoundaries: true } : {}),
  };
}
