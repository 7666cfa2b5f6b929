/** What ranking reads off a fragment: the signals strategies measure, and the features made of them. */

/**
 * What strategies measured about a fragment, before any weighting: the
 * learned ranking turns these (with what the fragment's path says against the
 * task) into one score.
 */
export interface RankSignals {
  /** The keyword hit's BM25 over the best hit's: 0–1. */
  readonly keyword?: number;
  /** The keyword hit's place among the hits, 0 for the best. */
  readonly keywordRank?: number;
  /** What the graph walk brought its definitions, over the best-supported one's: 0–1. */
  readonly graph?: number;
  /** 1 for a definition the walk reached that no keyword hit holds. */
  readonly reached?: number;
  /** How often its file changed together with the best hits' files: 0–1. */
  readonly coChange?: number;
  /** How much past commits worded like the task changed its file: 0–1. */
  readonly message?: number;
  /** Cosine similarity of its vector to the task's. */
  readonly vector?: number;
  /** The best keyword hit's score in the same file, over the best hit's: 0–1. */
  readonly fileKeyword?: number;
  /** How many of the keyword hits are in the same file (itself included). */
  readonly fileHits?: number;
  /** 1 when it holds a line the task points at (a stack frame, `path:line`). */
  readonly located?: number;
  /** 1 for a keyword hit in what the request focuses on (`--focus` a file, folder or definition), 0.5 for a focused definition no hit holds. */
  readonly focused?: number;
  /** 1 when a comment in it opens with a word of the task ("Retries a request"). */
  readonly docLead?: number;
  /** How much of the recent history changed its file: log(1 + 100 × share) / log(101), 0–1. */
  readonly recentChanges?: number;
}

/** Every signal's name: what is kept of a strategy's signals when its fragments are checked. */
export const RANK_SIGNALS = [
  "keyword",
  "keywordRank",
  "graph",
  "reached",
  "coChange",
  "message",
  "vector",
  "fileKeyword",
  "fileHits",
  "located",
  "focused",
  "docLead",
  "recentChanges",
] as const satisfies readonly (keyof RankSignals)[];

/** The learned ranking's inputs, in the order weights are listed. */
export const RANK_FEATURES = [
  "keyword",
  "keywordRank",
  "graph",
  "reached",
  "coChange",
  "message",
  "otherRole",
  "askedRole",
  "namedFile",
  "definition",
  "size",
  "fileKeyword",
  "fileHits",
  "pathWords",
  "symbolNamed",
  "vector",
  "located",
  "docLead",
  "nameWords",
  "focused",
  "recentChanges",
] as const;

export type RankFeature = (typeof RANK_FEATURES)[number];
export type RankFeatures = Readonly<Record<RankFeature, number>>;

/** A fragment's features and what each added to its log-odds (for `--explain`). */
export interface RankExplanation {
  readonly features: RankFeatures;
  readonly contributions: Readonly<Record<RankFeature, number>>;
}

/** A fixed rule of the ranking stage that scaled a score: `other-role ×0.5`. */
export interface RankRule {
  readonly rule: string;
  readonly factor: number;
}

/**
 * How the ranking stage arrived at a fragment's final score (for `--explain`):
 * its base, from the learned model over the fragment's signals or from its
 * strategy's own score made comparable across strategies, then each named rule
 * that scaled it. `placed` names the rule that put it at a fixed place instead
 * (its score is then between its neighbours').
 */
export interface RankBreakdown {
  readonly by: "model" | "strategy";
  readonly base: number;
  readonly rules: readonly RankRule[];
  /** The model's features and each one's part of the log-odds (`by` "model" only). */
  readonly model?: RankExplanation;
  readonly placed?: string;
}

/** A logistic model over the rank features: log-odds = bias + Σ weight × feature. */
export interface RankingModel {
  readonly bias: number;
  readonly weights: Readonly<Record<RankFeature, number>>;
}
