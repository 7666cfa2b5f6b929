import type { TokenCounter } from "../core/token-counter.js";

/** Share of the allowance kept from the start of the document; the rest comes from its end. */
const HEAD_SHARE = 0.6;

/**
 * The document cut to `maxTokens`: whole lines from its head and its tail, with
 * a visible marker saying how many lines were left out in between.
 */
export function truncateDocument(text: string, maxTokens: number, counter: TokenCounter): string {
  if ((counter.countUpTo?.(text, maxTokens) ?? counter.count(text)) <= maxTokens) return text;
  const lines = text.split("\n");
  const headBudget = Math.floor(maxTokens * HEAD_SHARE);
  const tailBudget = maxTokens - headBudget - 20;
  let head = 0;
  for (let used = 0; head < lines.length; head++) {
    const cost = counter.count(lines[head] ?? "") + 1;
    if (used + cost > headBudget) break;
    used += cost;
  }
  let tail = lines.length;
  for (let used = 0; tail > head; tail--) {
    const cost = counter.count(lines[tail - 1] ?? "") + 1;
    if (used + cost > tailBudget) break;
    used += cost;
  }
  const omitted = tail - head;
  return [
    ...lines.slice(0, head),
    `[… ${omitted} lines of the document omitted here …]`,
    ...lines.slice(tail),
  ].join("\n");
}

/** The context cut to `maxTokens` at a word boundary. */
export function capContext(context: string, maxTokens: number, counter: TokenCounter): string {
  const clean = context.replace(/\s+/g, " ").trim();
  if (counter.count(clean) <= maxTokens) return clean;
  const words = clean.split(" ");
  let low = 1;
  let high = words.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (counter.count(words.slice(0, middle).join(" ")) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  return words.slice(0, low).join(" ");
}
