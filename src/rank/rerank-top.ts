import type { ContextFragment } from "../core/fragment.js";
import type { Reranker } from "../core/reranker.js";

/** Candidates re-scored when the reranker does not say how many. */
const DEFAULT_TOP = 30;
/**
 * The longest a query waits for the reranker, retries included: past it the
 * answer goes out in the ranking's order (a reranker that hangs must not hold
 * every query for its timeout times its retries).
 */
const RERANK_DEADLINE_MS = 15_000;

/**
 * The ranking's best candidates in the reranker's order, when one is
 * configured: the first `topN` fragments are re-scored against the task and
 * take the scores the top already had, best to the reranker's best, so they
 * stay above the rest and scores keep their scale. A reranker that fails,
 * answers nonsense or takes longer than the deadline costs only the
 * reranking: the order is kept.
 */
export async function rerankedTop(
  task: string,
  sorted: readonly ContextFragment[],
  reranker: Reranker | undefined,
  signal?: AbortSignal,
): Promise<ContextFragment[]> {
  if (!reranker || sorted.length < 2) return [...sorted];
  const top = sorted.slice(0, reranker.topN ?? DEFAULT_TOP);
  const deadline = AbortSignal.timeout(RERANK_DEADLINE_MS);
  let scores: number[];
  try {
    scores = await reranker.rerank(
      task,
      top.map(rerankText),
      signal ? AbortSignal.any([signal, deadline]) : deadline,
    );
  } catch {
    signal?.throwIfAborted();
    return [...sorted];
  }
  if (scores.length !== top.length || !scores.every(Number.isFinite)) return [...sorted];
  const order = top
    .map((fragment, index) => ({ fragment, score: scores[index] ?? 0, index }))
    .sort((a, b) => b.score - a.score || a.index - b.index);
  const kept = top.map((fragment) => fragment.score);
  const reranked = order.map(({ fragment }, place) => ({
    ...fragment,
    score: kept[place] ?? fragment.score,
    ranking: [
      ...(fragment.ranking ?? []),
      `reranker (${reranker.id}): ${place + 1} of ${top.length}`,
    ],
  }));
  return [...reranked, ...sorted.slice(top.length)];
}

/** What the reranker reads: where the fragment is, then its text. */
function rerankText(fragment: ContextFragment): string {
  const { source } = fragment;
  return source.kind === "file" ? `${source.path}\n${fragment.content}` : fragment.content;
}
