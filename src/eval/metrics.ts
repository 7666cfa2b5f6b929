/** Retrieval metrics over one ranked list; all return fractions in 0..1. */

/** Share of the relevant units found in the top k (Pass@k, and Recall@k for binary qrels). */
export function passAtK(
  ranked: readonly string[],
  relevant: ReadonlyMap<string, number>,
  k: number,
): number {
  if (relevant.size === 0) return 0;
  let found = 0;
  for (const id of ranked.slice(0, k)) if (relevant.has(id)) found++;
  return found / relevant.size;
}

/** nDCG@k with graded relevance as gain, as trec_eval computes it. */
export function ndcgAtK(
  ranked: readonly string[],
  relevant: ReadonlyMap<string, number>,
  k: number,
): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, index) => {
    dcg += (relevant.get(id) ?? 0) / Math.log2(index + 2);
  });
  const ideal = [...relevant.values()].sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((sum, gain, index) => sum + gain / Math.log2(index + 2), 0);
  return idcg === 0 ? 0 : dcg / idcg;
}

/** Reciprocal rank of the first relevant unit within the top k, 0 if none. */
export function mrrAtK(
  ranked: readonly string[],
  relevant: ReadonlyMap<string, number>,
  k: number,
): number {
  const index = ranked.slice(0, k).findIndex((id) => relevant.has(id));
  return index < 0 ? 0 : 1 / (index + 1);
}
