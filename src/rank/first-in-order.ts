/**
 * The first `count` items in `compare`'s order, as a full sort would put
 * them (for a total order), without sorting them all: a query's graph walk
 * reaches thousands of definitions, of which the navigator takes twenty.
 */
export function firstInOrder<T>(
  items: readonly T[],
  count: number,
  compare: (a: T, b: T) => number,
): T[] {
  if (count <= 0) return [];
  if (items.length <= 4 * count) return [...items].sort(compare).slice(0, count);
  const best: T[] = [];
  for (const item of items) {
    if (best.length === count && compare(item, best[count - 1] as T) >= 0) continue;
    // Binary search for the first kept item that comes after this one.
    let low = 0;
    let high = best.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compare(best[middle] as T, item) <= 0) low = middle + 1;
      else high = middle;
    }
    best.splice(low, 0, item);
    if (best.length > count) best.pop();
  }
  return best;
}
