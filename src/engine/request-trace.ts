import type { PackResult } from "../assemble/pack-to-budget.js";
import type { ContextFragment, DetailDepth, Tier } from "../core/fragment.js";
import type { StrategyRun } from "../core/provenance.js";
import type { PipelineOutput } from "../strategies/run-strategies.js";

/** What became of one candidate fragment in a request. */
export type CandidateOutcome = "included" | "over-budget" | "duplicate" | "timed-out" | "below-cut";

/** One candidate as a report shows it: where it is from, how it scored, and whether it got in. */
export interface CandidateTrace {
  readonly id: string;
  /** The file, or `commit abc1234`, or `plan 3`; a timed-out strategy's row has "". */
  readonly path: string;
  /** 0 for a source without lines. */
  readonly startLine: number;
  readonly endLine: number;
  readonly score: number;
  readonly strategy: string;
  readonly tier: Tier;
  /** The depth it is shown at when included, else the one it was offered at. */
  readonly detailDepth: DetailDepth;
  readonly tokens: number;
  readonly outcome: CandidateOutcome;
  /** Why, in words: "shown as its signature", "duplicate of src/a.ts#L1-L9 (simple-keyword)". */
  readonly reason: string;
}

const DEPTH_WORDS: Record<DetailDepth, string> = {
  full: "shown whole",
  signature: "shown as its signature and doc comment to fit",
  outline: "shown as its declaration line to fit",
};

/**
 * Every candidate of a request with its outcome: the packed ones and those
 * left out by the budget, those the executor cut (past `max_fragments` or the
 * whole budget), the copies merged away as duplicates, and a row for each
 * strategy that timed out. Included first, then by score.
 */
export function traceCandidates(
  offered: readonly ContextFragment[],
  pipeline: Pick<PipelineOutput, "results" | "duplicates" | "runs">,
  packed: Pick<PackResult, "placed">,
  showId: (id: string) => string,
  settingsFor: (strategy: string) => { readonly maxFragments: number },
): CandidateTrace[] {
  const rows: CandidateTrace[] = [];
  for (const fragment of offered) {
    const depth = packed.placed.get(fragment.id);
    rows.push(
      depth
        ? row(fragment, showId, "included", DEPTH_WORDS[depth], depth)
        : row(fragment, showId, "over-budget", "did not fit in what was left of the budget"),
    );
  }
  for (const { fragment, of } of pipeline.duplicates) {
    rows.push(row(fragment, showId, "duplicate", `duplicate of ${showId(of)}`));
  }
  for (const result of pipeline.results) {
    for (const { fragment, reason } of result.leftOut ?? []) {
      const words =
        reason === "below-cut"
          ? `below the cut: past max_fragments (${result.stats.maxFragments ?? settingsFor(result.strategyName).maxFragments})`
          : "over the request's whole budget";
      rows.push(row(fragment, showId, reason, words));
    }
  }
  for (const run of pipeline.runs) rows.push(...timedOut(run));
  const order: Record<CandidateOutcome, number> = {
    included: 0,
    "over-budget": 1,
    "below-cut": 2,
    duplicate: 3,
    "timed-out": 4,
  };
  return rows.sort(
    (a, b) => order[a.outcome] - order[b.outcome] || b.score - a.score || a.id.localeCompare(b.id),
  );
}

function row(
  fragment: ContextFragment,
  showId: (id: string) => string,
  outcome: CandidateOutcome,
  reason: string,
  depth: DetailDepth = fragment.detailDepth,
): CandidateTrace {
  const { source } = fragment;
  const place =
    source.kind === "file"
      ? { path: source.path, startLine: source.startLine, endLine: source.endLine }
      : source.kind === "commit"
        ? { path: `commit ${source.sha.slice(0, 7)}`, startLine: 0, endLine: 0 }
        : { path: `plan ${source.id}`, startLine: 0, endLine: 0 };
  return {
    id: showId(fragment.id),
    ...place,
    score: fragment.score,
    strategy: fragment.strategy,
    tier: fragment.tier,
    detailDepth: depth,
    tokens: fragment.tokens,
    outcome,
    reason,
  };
}

/** A strategy aborted at its timeout brought no candidates: one row says so. */
function timedOut(run: StrategyRun): CandidateTrace[] {
  const error = run.errors.find((message) => message.startsWith("timed out"));
  if (!error) return [];
  return [
    {
      id: `${run.name} (timed out)`,
      path: "",
      startLine: 0,
      endLine: 0,
      score: 0,
      strategy: run.name,
      tier: "warm",
      detailDepth: "full",
      tokens: 0,
      outcome: "timed-out",
      reason: `${run.name} ${error}: whatever it would have found is missing`,
    },
  ];
}
