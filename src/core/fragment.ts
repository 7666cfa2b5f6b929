import type { RankBreakdown, RankSignals } from "./rank-signals.js";
import type { ChunkKind } from "./types.js";

/** Where a fragment's content comes from. */
export type FragmentSource =
  | {
      readonly kind: "file";
      readonly resourceId: string;
      readonly path: string;
      /** 1-based, inclusive. */
      readonly startLine: number;
      readonly endLine: number;
      readonly language: string;
    }
  | {
      readonly kind: "commit";
      /** 40 hex digits. */
      readonly sha: string;
      /** Author date, ISO 8601. */
      readonly date: string;
      readonly author: string;
      readonly subject: string;
      /** The file whose change the fragment shows, if one. */
      readonly path: string | null;
    }
  | { readonly kind: "decision"; readonly id: string };

/** How much of a unit a fragment shows: all of it, its signature, or one line. */
export type DetailDepth = "full" | "signature" | "outline";

/** Hot is offered first (pinned files), warm is the working tree, cold is history. */
export type Tier = "hot" | "warm" | "cold";

/** A piece of context a strategy returns and the assembler packs. */
export interface ContextFragment {
  /** `resourceId:relPath#Lstart-Lend` for files; unique within one result. */
  readonly id: string;
  readonly source: FragmentSource;
  readonly content: string;
  /** Tokens of `content` by the engine's TokenCounter. */
  readonly tokens: number;
  /** Relevance, higher is better; comparable within one strategy's output. */
  readonly score: number;
  /** Name of the strategy that produced it. */
  readonly strategy: string;
  readonly tier: Tier;
  /** Stable id of the graph node (file or symbol); ties on score order by it. */
  readonly nodeId: string;
  readonly detailDepth: DetailDepth;
  readonly symbol: string;
  readonly chunkKind: ChunkKind;
  /** Ids of the stored chunks the fragment covers. */
  readonly chunkIds: readonly number[];
  /** The context indexed with it (contextual retrieval); shown only with --explain. */
  readonly context?: string;
  /** Why the score moved after its strategy gave it (`test file ×0.5`); shown only with --explain. */
  readonly ranking?: readonly string[];
  /** What the strategy measured, unweighted: the learned ranking scores fragments that carry it. */
  readonly signals?: RankSignals;
  /** How the ranking stage scored it (`rank/rank-candidates.ts`); shown only with --explain. */
  readonly rank?: RankBreakdown;
  /**
   * A later part of a definition or section cut in parts: its first lines are
   * the middle of something, no signature or heading, so cut down it keeps its
   * lines that hold the task's words (`reduceDetail`).
   */
  readonly continued?: boolean;
  /**
   * Returned past its strategy's first `max_fragments` (the default 100), which
   * a large budget lets it return: ranked after every fragment that is not, so
   * it fills what they leave of the budget and never displaces one of them.
   */
  readonly spare?: boolean;
}
