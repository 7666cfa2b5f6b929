import { readFileSync } from "node:fs";
import { ConfigError } from "../core/errors.js";
import {
  RANK_FEATURES,
  type RankExplanation,
  type RankFeature,
  type RankFeatures,
  type RankingModel,
} from "../core/rank-signals.js";
import { TRAINED_RANKING_MODEL } from "./ranking-weights.js";

/** The probability-like score in 0–1: all a candidate's ordering needs. */
export function probabilityOf(model: RankingModel, features: RankFeatures): number {
  let logOdds = model.bias;
  for (const name of RANK_FEATURES) logOdds += model.weights[name] * features[name];
  return 1 / (1 + Math.exp(-logOdds));
}

/** The score and its explanation: what a fragment that may be shown carries. */
export function scoreWith(
  model: RankingModel,
  features: RankFeatures,
): { score: number; explanation: RankExplanation } {
  const contributions = {} as Record<RankFeature, number>;
  for (const name of RANK_FEATURES)
    contributions[name] = round(model.weights[name] * features[name]);
  return {
    score: probabilityOf(model, features),
    explanation: { features, contributions },
  };
}

/**
 * The shipped model, or the one in the JSON file `CTX_RANKING_MODEL` names
 * (`{"bias": …, "weights": {…}}`, as `npm run train-ranker` writes them): how
 * weights trained on other data are evaluated without rebuilding.
 */
export function activeRankingModel(): RankingModel {
  const file = process.env.CTX_RANKING_MODEL;
  if (!file) return TRAINED_RANKING_MODEL;
  const cached = loaded.get(file);
  if (cached) return cached;
  const model = readModel(file);
  loaded.set(file, model);
  return model;
}

const loaded = new Map<string, RankingModel>();

function readModel(file: string): RankingModel {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ConfigError(
      file,
      `cannot read the ranking model CTX_RANKING_MODEL names (${(error as Error).message}); point it at a file npm run train-ranker wrote, or unset it`,
    );
  }
  const { bias, weights } = (parsed ?? {}) as { bias?: unknown; weights?: Record<string, unknown> };
  if (typeof bias !== "number" || typeof weights !== "object" || weights === null)
    throw new ConfigError(file, 'the ranking model (CTX_RANKING_MODEL) needs "bias" and "weights"');
  const checked = {} as Record<RankFeature, number>;
  for (const name of RANK_FEATURES) {
    const weight = weights[name] ?? 0;
    if (typeof weight !== "number" || !Number.isFinite(weight))
      throw new ConfigError(file, `the ranking model's weight "${name}" is not a number`);
    checked[name] = weight;
  }
  return { bias, weights: checked };
}

function round(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}
