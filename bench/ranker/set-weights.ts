import type { RankFeature } from "../../src/core/rank-signals.js";

/**
 * Weights set, not learned. No training data has vectors (no embedding model
 * runs here). `reached` learned (1.3) put the walk's definitions above keyword
 * hits on the code questions, where they are rarely the answer (Pass@10 87.3
 * against 89.9 at 0): at 0 a walked definition ranks by its graph support,
 * kind and size alone, and the commit benchmark's held-out figures were as good.
 * No task of the data points at a line (a stack frame, `path:line`): `located`
 * is set to outweigh any word match, since a frame of the task's own trace is
 * what the task is about. No task of the data has a focus either: `focused`
 * is set so that what lies in the focus and matches the task comes before
 * other matches of the task (a hit there has 1), while a focused definition
 * that matches no word of it (0.5) stays below the best of them. The pinned
 * rows have no history feature: `recentChanges` was chosen on the answers of
 * all twenty repositories (see src/rank/recent-changes.ts), each left out in turn.
 */
export const SET_WEIGHTS: Readonly<Partial<Record<RankFeature, number>>> = {
  vector: 1,
  reached: 0,
  located: 5,
  focused: 4,
  recentChanges: 2,
};
