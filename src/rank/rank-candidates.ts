import type { FileRoles } from "../core/file-roles.js";
import type { ContextFragment } from "../core/fragment.js";
import type { TemporalBackend } from "../core/history.js";
import type { RankingModel } from "../core/rank-signals.js";
import type { Reranker } from "../core/reranker.js";
import type { ContextStrategyResult } from "../core/strategy.js";
import type { TextBackend } from "../core/text-backend.js";
import type { TokenCounter } from "../core/token-counter.js";
import { withBestFileHead } from "./best-file-head.js";
import { mergedSignals, rankedByModel } from "./learned-ranking.js";
import { DEFAULT_PATH_PRIORS, type PathPriors, pathRulesFor } from "./path-priors.js";
import { taskFacts } from "./rank-features.js";
import { activeRankingModel } from "./ranking-model.js";
import { withRecentChanges } from "./recent-changes.js";
import { rerankedTop } from "./rerank-top.js";

/** What the ranking stage ranks: every strategy's output for one task. */
export interface RankingInput {
  readonly task: string;
  readonly budget: number;
  readonly results: readonly ContextStrategyResult[];
  /** Each strategy's weight for this task: its confidence × its quality. */
  readonly weights: ReadonlyMap<string, number>;
  /** Where the best file's head is read from; without it, no head is placed. */
  readonly text: TextBackend | undefined;
  readonly counter: TokenCounter;
  /** Default: the shipped model, or the one `CTX_RANKING_MODEL` names. */
  readonly model?: RankingModel;
  readonly priors?: PathPriors;
  /** What each file is for; default: as its path says. */
  readonly roles?: FileRoles;
  /** Re-scores the best candidates when one is configured (`[rerank]`). */
  readonly reranker?: Reranker;
  /** The history, for how often each candidate's file changed lately (`recentChanges`). */
  readonly temporal?: TemporalBackend;
  readonly signal?: AbortSignal;
}

export interface RankedCandidates {
  /** Every strategy's fragments, one copy each, scored by `finalScore`, best first. */
  readonly candidates: ContextFragment[];
  /** Copies removed as duplicates (same id or same content), with the id of the copy kept. */
  readonly duplicates: { readonly fragment: ContextFragment; readonly of: string }[];
}

/**
 * The ranking stage, the one place a candidate's rank is decided: the copies
 * of a fragment that several strategies returned become one (its signals at
 * their strongest, every copy's reasons), each file's lead learns how often the file
 * changed lately, `finalScorer`'s function scores each, copies of
 * the same content keep the best-scored, the reranker (when configured) reorders
 * the top, and after sorting the best file's
 * head is placed among the first (`withBestFileHead`). Packing into the budget
 * is the caller's next step (the hot tier goes first there).
 */
export async function rankCandidates(input: RankingInput): Promise<RankedCandidates> {
  const duplicates: { fragment: ContextFragment; of: string }[] = [];
  const score = finalScorer(input);
  const byContent = new Map<string, ContextFragment>();
  const copies = [...mergedCopies(input.results, input.weights, duplicates)];
  const scored = copies.map(score);
  const withHistory = await withRecentChanges(
    copies,
    input.temporal,
    scored.map((fragment) => fragment.score),
  );
  for (const [index, copy] of withHistory.entries()) {
    // Only a file's lead changes with the history: the others keep the score they have.
    const fragment = copy === copies[index] ? (scored[index] as ContextFragment) : score(copy);
    const key = fragment.content.trim();
    const seen = byContent.get(key);
    if (key.length === 0 || !seen || fragment.score > seen.score) {
      byContent.set(key.length === 0 ? fragment.id : key, fragment);
      if (key.length > 0 && seen) duplicates.push({ fragment: seen, of: fragment.id });
    } else {
      duplicates.push({ fragment, of: seen.id });
    }
  }
  const candidates = await withBestFileHead(
    await rerankedTop(
      input.task,
      [...byContent.values()].sort(byScore),
      input.reranker,
      input.signal,
    ),
    input.text,
    input.counter,
    input.budget,
  );
  return { candidates, duplicates };
}

/**
 * A fragment's final score, with its breakdown (`fragment.rank`): a file's
 * fragment that carries signals is scored by the learned model; any other
 * keeps its strategy's score made comparable (see `mergedCopies`), scaled by
 * the path rules where it is a file's (the model has features for both rules). The
 * hot tier keeps its score: it is packed first whatever it is.
 */
export function finalScorer(
  input: Pick<RankingInput, "task" | "budget" | "model" | "priors" | "roles">,
): (fragment: ContextFragment) => ContextFragment {
  const model = input.model ?? activeRankingModel();
  const facts = taskFacts(input.task, input.budget, input.roles);
  const pathRules = pathRulesFor(input.task, input.priors ?? DEFAULT_PATH_PRIORS, input.roles);
  return (fragment) => {
    const { source } = fragment;
    const scored = rankedByModel(fragment, model, facts);
    if (scored !== fragment) return scored;
    const base = { by: "strategy", base: fragment.score } as const;
    if (source.kind !== "file" || fragment.tier === "hot") {
      return { ...fragment, rank: { ...base, rules: [] } };
    }
    const { rules, reasons } = pathRules(source.path);
    if (rules.length === 0) return { ...fragment, rank: { ...base, rules } };
    const factor = rules.reduce((product, rule) => product * rule.factor, 1);
    return {
      ...fragment,
      score: Math.round(fragment.score * factor * 1e6) / 1e6,
      ranking: [...(fragment.ranking ?? []), ...reasons],
      rank: { ...base, rules },
    };
  };
}

/**
 * Every strategy's fragments with comparable scores, one copy per id: a
 * strategy's best becomes its weight relative to the strongest strategy's, the
 * rest in proportion. The copy kept is the best-scored; it takes the signals of
 * all copies (each at its strongest) and the reasons of all copies (a
 * navigator hit's history reasons stay when a plain keyword copy is kept).
 */
function mergedCopies(
  results: readonly ContextStrategyResult[],
  weights: ReadonlyMap<string, number>,
  duplicates: { fragment: ContextFragment; of: string }[],
): Iterable<ContextFragment> {
  const strongest = Math.max(1e-9, ...weights.values());
  const byId = new Map<string, ContextFragment>();
  for (const result of results) {
    const best = Math.max(0, ...result.fragments.map((fragment) => fragment.score));
    const scale = (weights.get(result.strategyName) ?? 0) / strongest;
    for (const fragment of result.fragments) {
      const normalized = best > 0 ? (Math.max(0, fragment.score) / best) * scale : 0;
      const scored = { ...fragment, score: Math.round(normalized * 1e6) / 1e6 };
      const seen = byId.get(scored.id);
      const kept = !seen || scored.score > seen.score ? scored : seen;
      if (seen) duplicates.push({ fragment: kept === seen ? scored : seen, of: kept.id });
      const signals = mergedSignals(seen?.signals, scored.signals);
      const ranking = [...new Set([...(seen?.ranking ?? []), ...(scored.ranking ?? [])])];
      // Spare only when every strategy that returned it had it past its first max_fragments.
      const spare = (seen?.spare ?? true) && scored.spare === true;
      const { spare: _, ...rest } = kept;
      byId.set(scored.id, {
        ...rest,
        ...(signals ? { signals } : {}),
        ...(ranking.length > 0 ? { ranking } : {}),
        ...(spare ? { spare } : {}),
      });
    }
  }
  return byId.values();
}

/** Best first; ties by node id (path and line). */
function byScore(a: ContextFragment, b: ContextFragment): number {
  return b.score - a.score || (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0);
}
