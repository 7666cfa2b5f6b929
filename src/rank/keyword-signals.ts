import type { RankSignals } from "../core/rank-signals.js";
import type { TextHit } from "../core/text-backend.js";

/**
 * What a keyword search says of each of its hits, in hit order: its score
 * over the best one's, its place, and how strongly and how often the search
 * hit its file (a file hit many times is likelier the one a task is about,
 * and a weak hit in it likelier a part of the answer).
 */
export function keywordSignals(hits: readonly TextHit[]): RankSignals[] {
  const best = Math.max(1e-9, ...hits.map((hit) => hit.score));
  const files = new Map<string, { best: number; hits: number }>();
  const keyOf = (hit: TextHit) => `${hit.chunk.resourceId}\0${hit.chunk.path}`;
  for (const hit of hits) {
    const key = keyOf(hit);
    const seen = files.get(key);
    if (seen) {
      seen.best = Math.max(seen.best, hit.score);
      seen.hits++;
    } else files.set(key, { best: hit.score, hits: 1 });
  }
  return hits.map((hit, rank) => {
    const file = files.get(keyOf(hit));
    return {
      keyword: hit.score / best,
      keywordRank: rank,
      fileKeyword: (file?.best ?? 0) / best,
      fileHits: file?.hits ?? 1,
    };
  });
}
