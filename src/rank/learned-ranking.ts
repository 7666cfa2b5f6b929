import type { ContextFragment } from "../core/fragment.js";
import type { RankingModel, RankSignals } from "../core/rank-signals.js";
import { type FragmentPlace, rankFeatures, type TaskFacts } from "./rank-features.js";
import { probabilityOf, scoreWith } from "./ranking-model.js";

/** The model's score for signals measured on a span of a file (no explanation: the navigator ranks every hit with it). */
export function learnedScore(
  model: RankingModel,
  signals: RankSignals,
  where: FragmentPlace,
  facts: TaskFacts,
): number {
  return probabilityOf(model, rankFeatures(signals, where, facts));
}

/**
 * A file fragment that carries signals, scored by the model, with what its
 * path added said in words (the strategy's own reasons kept before them).
 * Other fragments, and the hot tier, come back as they are.
 */
export function rankedByModel(
  fragment: ContextFragment,
  model: RankingModel,
  facts: TaskFacts,
): ContextFragment {
  const { source, signals } = fragment;
  if (!signals || source.kind !== "file" || fragment.tier === "hot") return fragment;
  const features = rankFeatures(
    signals,
    {
      path: source.path,
      kind: fragment.chunkKind,
      lines: source.endLine - source.startLine + 1,
      symbol: fragment.symbol,
    },
    facts,
  );
  const { score, explanation } = scoreWith(model, features);
  const role = facts.roleOf(source.path);
  const reasons = [...(fragment.ranking ?? [])];
  const { contributions } = explanation;
  if (features.otherRole > 0 && contributions.otherRole !== 0)
    reasons.push(
      `${role} file ${signed(contributions.otherRole)} (the task does not ask for ${role} files)`,
    );
  if (features.askedRole > 0 && contributions.askedRole !== 0)
    reasons.push(`${role} file the task asks for ${signed(contributions.askedRole)}`);
  if (features.namedFile > 0 && contributions.namedFile !== 0)
    reasons.push(`file named in the task ${signed(contributions.namedFile)}`);
  const rounded = Math.round(score * 1e6) / 1e6;
  return {
    ...fragment,
    score: rounded,
    rank: { by: "model", base: rounded, rules: [], model: explanation },
    ...(reasons.length > 0 ? { ranking: reasons } : {}),
  };
}

/** Two copies of one fragment from different strategies: each signal at its stronger. */
export function mergedSignals(
  a: RankSignals | undefined,
  b: RankSignals | undefined,
): RankSignals | undefined {
  if (!a) return b;
  if (!b) return a;
  const merged: Record<string, number> = { ...a };
  for (const [name, value] of Object.entries(b)) {
    const seen = merged[name];
    if (value === undefined) continue;
    // A rank is better when lower.
    merged[name] =
      seen === undefined
        ? value
        : name === "keywordRank"
          ? Math.min(seen, value)
          : Math.max(seen, value);
  }
  return merged as RankSignals;
}

function signed(value: number): string {
  return `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(2)}`;
}
