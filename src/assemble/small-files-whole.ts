import type { ContextFragment } from "../core/fragment.js";
import type { TextBackend } from "../core/text-backend.js";
import type { TokenCounter } from "../core/token-counter.js";
import { chunkFragment } from "./chunk-fragments.js";
import { compareForOutput } from "./merge-fragments.js";

/** How many of the ranking's first files may be shown whole. */
export const WHOLE_FILES = 5;

/** The most of the budget one file shown whole may take. */
export const WHOLE_MAX_SHARE = 0.5;

/**
 * The score of a first file's chunks that no strategy offered. Over the
 * answers of the commit benchmark and swe-dev at 8,000 tokens, fragments
 * scored under 0.02 held no changed line at all (0.000 of a commit's gold per
 * 1,000 tokens: changelogs, tests, other files' docs), those from 0.02 to 0.05
 * 0.007; the rest of the first files, when small, 0.02 to 0.03. So these
 * chunks take the place of that tail, and of nothing better. Of (score, files,
 * share) = (0.05, 3, 0.25), (0.025, 3, 0.25) and (0.02, 5, 0.5), the last had
 * the best mean of the six file@ and line@ figures with any one of the twenty
 * repositories of the commit benchmark and swe-dev left out; 0.05 took files
 * from 8,000-token answers (swe-dev preact file@8k 81.4 → 75.5).
 */
export const WHOLE_SCORE = 0.02;

/**
 * The rest of a likely file is likely to hold the change too: the rest of a
 * first file is scored this share of the file's best fragment where that is
 * above `WHOLE_SCORE` (a best of 0.5 gives 0.05), so the surer the file, the
 * more of the weak tail its rest displaces. The share was chosen on the
 * saved answers of the commit benchmark and swe-dev, each of their twenty
 * repositories left out in turn, among shares 0.1 to 0.3 and a step (18
 * folds chose 0.1). Measured on the kept indexes against the fixed 0.02:
 * line@8k 70.8 → 71.1 and 63.7 → 64.7 (swe-dev preact 47.4 → 53.2), line@32k
 * 81.4 → 82.6 and 82.8 → 82.8, file@32k 94.1 → 93.8 and 93.6 → 93.5, the
 * 2k and 8k file@ figures unchanged; 19 of the 20 folds prefer it by the mean
 * of the six file@ and line@ figures.
 */
export const WHOLE_SHARE_OF_BEST = 0.1;

/** The placement rule's name in a fragment's rank breakdown. */
export const WHOLE_RULE = "small-file-whole";

export const WHOLE_REASON =
  "the rest of a small file among the first five: shown whole where the budget allows";

/**
 * The candidates with the chunks no strategy offered of each of the ranking's
 * first `WHOLE_FILES` files that fits in `WHOLE_MAX_SHARE` of the budget,
 * scored `WHOLE_SCORE` or `WHOLE_SHARE_OF_BEST` of the file's best, whichever
 * is more (never above the best itself). A change rarely
 * stays in the lines a search matched: where a commit's file was found, the
 * answers covered most of its changed lines but not all, while the weakest
 * fragments of an answer covered none; a small file read whole is also what
 * a reader asks for next.
 */
export async function withSmallFilesWhole(
  candidates: readonly ContextFragment[],
  text: TextBackend | undefined,
  counter: TokenCounter,
  budget: number,
): Promise<ContextFragment[]> {
  if (!text) return [...candidates];
  const first = new Map<string, ContextFragment>();
  for (const fragment of candidates) {
    if (first.size >= WHOLE_FILES) break;
    const { source } = fragment;
    if (source.kind !== "file" || fragment.tier !== "warm") continue;
    const key = `${source.resourceId}\0${source.path}`;
    if (!first.has(key)) first.set(key, fragment);
  }
  const offered = new Set(candidates.map((fragment) => fragment.id));
  const added: ContextFragment[] = [];
  for (const best of first.values()) {
    if (best.source.kind !== "file") continue;
    const chunks = await text.getDocumentChunks(best.source.resourceId, best.source.path);
    const tokens = chunks.reduce((sum, chunk) => sum + chunk.tokens, 0);
    if (chunks.length < 2 || tokens > WHOLE_MAX_SHARE * budget) continue;
    const score = Math.min(best.score, Math.max(WHOLE_SCORE, WHOLE_SHARE_OF_BEST * best.score));
    for (const chunk of chunks) {
      const fragment = chunkFragment(chunk, score, best.strategy, counter);
      if (offered.has(fragment.id)) continue;
      offered.add(fragment.id);
      added.push({
        ...fragment,
        ranking: [WHOLE_REASON],
        rank: { by: "strategy", base: score, rules: [], placed: WHOLE_RULE },
      });
    }
  }
  if (added.length === 0) return [...candidates];
  return [...candidates, ...added].sort(compareForOutput);
}
