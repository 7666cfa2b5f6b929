import type { TemporalBackend } from "../core/history.js";
import type { TextHit } from "../core/text-backend.js";

/** The best hits' files whose co-changes are looked up. */
const TOP_FILES = 5;
/** Partners read per file. */
const PARTNERS = 20;

/** What the history says of the files that change together with the best hits' files, keyed `resourceId\0path`. */
export interface CoChangeSupport {
  /** 0–1: see `coChangeSupport`. */
  readonly support: ReadonlyMap<string, number>;
  /**
   * Partners changed together with one of the best hits' files more than once.
   * One commit is no pattern: in a repository of one commit (or a shallow
   * clone's first) every file changed with every other.
   */
  readonly repeated: ReadonlySet<string>;
}

/**
 * How strongly each file changes together with the best keyword hits' files:
 * for a top file, the share of its commits that also changed the partner,
 * times that file's hit score over the best; a partner keeps its strongest
 * such value, and the strongest partner scores 1.
 */
export async function coChangeSupport(
  temporal: TemporalBackend,
  hits: readonly TextHit[],
): Promise<CoChangeSupport> {
  const top: TextHit[] = [];
  const seen = new Set<string>();
  for (const hit of hits) {
    const key = `${hit.chunk.resourceId}\0${hit.chunk.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    top.push(hit);
    if (top.length >= TOP_FILES) break;
  }
  const best = top[0]?.score ?? 0;
  const support = new Map<string, number>();
  const repeated = new Set<string>();
  if (best <= 0) return { support, repeated };
  for (const hit of top) {
    const { resourceId, path } = hit.chunk;
    const commits = (await temporal.fileActivity(resourceId, [path])).get(path)?.commits ?? 0;
    if (commits === 0) continue;
    for (const partner of await temporal.coChanges(resourceId, path, PARTNERS)) {
      const key = `${resourceId}\0${partner.path}`;
      const value = (hit.score / best) * (partner.together / commits);
      support.set(key, Math.max(support.get(key) ?? 0, value));
      if (partner.together > 1) repeated.add(key);
    }
  }
  const strongest = Math.max(0, ...support.values());
  return {
    support: new Map(
      [...support].map(([key, value]) => [key, strongest > 0 ? value / strongest : 0]),
    ),
    repeated,
  };
}
