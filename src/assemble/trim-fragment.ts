import type { ContextFragment } from "../core/fragment.js";

/** Fewer lines than this are not worth showing as a cut-down fragment. */
const MIN_LINES = 3;

/**
 * The longest head of a file fragment (whole lines) whose cost, as `costOf`
 * measures it, is within `allowance`; null when not even a few lines fit.
 * Found by binary search, so the cost is measured O(log lines) times.
 */
export function trimFragment(
  fragment: ContextFragment,
  allowance: number,
  costOf: (fragment: ContextFragment) => number,
  countTokens: (text: string) => number,
): ContextFragment | null {
  if (fragment.source.kind !== "file") return null;
  const { source } = fragment;
  const lines = fragment.content.split("\n");
  const headOf = (count: number): ContextFragment => {
    const content = lines.slice(0, count).join("\n");
    const endLine = source.startLine + count - 1;
    return {
      ...fragment,
      id: `${source.resourceId}:${source.path}#L${source.startLine}-L${endLine}`,
      source: { ...source, endLine },
      content,
      tokens: countTokens(content),
    };
  };
  let low = 0;
  let high = lines.length - 1;
  let best: ContextFragment | null = null;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    if (middle < MIN_LINES) {
      low = middle + 1;
      continue;
    }
    const head = headOf(middle);
    if (costOf(head) <= allowance) {
      best = head;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return best;
}
