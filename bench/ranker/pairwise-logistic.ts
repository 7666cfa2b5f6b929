/**
 * Pairwise logistic regression (RankNet with a linear scorer): for every query,
 * every pair of its candidates where one is more relevant than the other should
 * score higher. Fitted by Newton's method, so the same rows always give the
 * same weights.
 */

/** One query's candidates: feature vectors and gains. */
export interface TrainingQuery {
  readonly items: readonly {
    readonly x: readonly number[];
    readonly gain: number;
    /** What features held at set weights add to its score (0 when none). */
    readonly offset?: number;
  }[];
  /** How much the query counts against the others (1 when not given). */
  readonly weight?: number;
}

export interface FitOptions {
  /** L2 penalty on the weights (the loss is the mean over queries). */
  readonly l2: number;
  readonly iterations: number;
  /**
   * Weigh each pair by how much swapping its two candidates would move the
   * query's DCG under the current weights (LambdaRank), so the fit cares most
   * about the first places, which a small budget shows; else every pair of a
   * query weighs by its gain gap alone.
   */
  readonly topWeighted: boolean;
}

export const DEFAULT_FIT: FitOptions = { l2: 1e-3, iterations: 30, topWeighted: true };

/**
 * Weights minimising the weighted mean over queries of each query's pairwise
 * loss (its pairs weighted by their gain gap, or by their DCG swap, summing to
 * 1 per query) plus l2/2 ‖w‖².
 */
export function fitPairwise(
  queries: readonly TrainingQuery[],
  dimensions: number,
  options: FitOptions = DEFAULT_FIT,
): number[] {
  const perQuery = queries.map((query) => pairsOf(query, dimensions));
  const total = Math.max(
    1e-12,
    queries.reduce((sum, query) => sum + (query.weight ?? 1), 0),
  );
  let weights = new Array<number>(dimensions).fill(0);
  for (let iteration = 0; iteration < options.iterations; iteration++) {
    const gradient = weights.map((w) => options.l2 * w);
    const hessian = identity(dimensions, options.l2);
    queries.forEach((query, q) => {
      const pairs = perQuery[q] ?? [];
      const pairWeights = options.topWeighted
        ? swapWeights(query, pairs, weights)
        : pairs.map((pair) => pair.gap);
      const sum = pairWeights.reduce((a, b) => a + b, 0);
      if (sum <= 0) return;
      const scale = (query.weight ?? 1) / total / sum;
      pairs.forEach(({ difference, offset }, k) => {
        const weight = (pairWeights[k] ?? 0) * scale;
        if (weight === 0) return;
        const p = sigmoid(dot(weights, difference) + offset);
        // d/dw of weight × log(1 + e^-margin)
        const slope = weight * (p - 1);
        const curvature = weight * p * (1 - p);
        for (let i = 0; i < dimensions; i++) {
          const di = difference[i] ?? 0;
          gradient[i] = (gradient[i] ?? 0) + slope * di;
          const row = hessian[i] as number[];
          for (let j = 0; j < dimensions; j++)
            row[j] = (row[j] ?? 0) + curvature * di * (difference[j] ?? 0);
        }
      });
    });
    const step = solve(hessian, gradient);
    weights = weights.map((w, i) => w - (step[i] ?? 0));
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return weights;
}

/**
 * The bias that makes sigmoid(bias + w·x) the best pointwise estimate of "this
 * candidate is relevant" over all candidates (the weights held fixed).
 */
export function fitBias(queries: readonly TrainingQuery[], weights: readonly number[]): number {
  const scored = queries.flatMap((query) =>
    query.items.map((item) => ({
      score: dot(weights, item.x) + (item.offset ?? 0),
      label: item.gain > 0 ? 1 : 0,
    })),
  );
  let bias = 0;
  for (let iteration = 0; iteration < 50; iteration++) {
    let gradient = 0;
    let curvature = 1e-9;
    for (const { score, label } of scored) {
      const p = sigmoid(bias + score);
      gradient += p - label;
      curvature += p * (1 - p);
    }
    // Damped: where scores saturate the curvature is near zero and a full step overshoots.
    const step = Math.max(-2, Math.min(2, gradient / curvature));
    bias -= step;
    if (Math.abs(step) < 1e-12) break;
  }
  return bias;
}

interface Pair {
  readonly better: number;
  readonly worse: number;
  readonly difference: readonly number[];
  /** The held features' part of the better one's score over the worse one's. */
  readonly offset: number;
  readonly gap: number;
}

function pairsOf(query: TrainingQuery, dimensions: number): Pair[] {
  const pairs: Pair[] = [];
  query.items.forEach((better, b) => {
    query.items.forEach((worse, w) => {
      const gap = better.gain - worse.gain;
      if (gap <= 0) return;
      const difference = Array.from(
        { length: dimensions },
        (_, i) => (better.x[i] ?? 0) - (worse.x[i] ?? 0),
      );
      pairs.push({
        better: b,
        worse: w,
        difference,
        offset: (better.offset ?? 0) - (worse.offset ?? 0),
        gap,
      });
    });
  });
  return pairs;
}

/** Each pair's |ΔDCG| were its two candidates swapped in the order the weights give (ties by position). */
function swapWeights(
  query: TrainingQuery,
  pairs: readonly Pair[],
  weights: readonly number[],
): number[] {
  const scores = query.items.map((item) => dot(weights, item.x) + (item.offset ?? 0));
  const order = scores
    .map((_, i) => i)
    .sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
  const place = new Array<number>(order.length);
  order.forEach((item, rank) => {
    place[item] = rank;
  });
  const discount = (rank: number) => 1 / Math.log2(rank + 2);
  return pairs.map(
    ({ better, worse, gap }) =>
      gap * Math.abs(discount(place[better] ?? 0) - discount(place[worse] ?? 0)),
  );
}

export function dot(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}

function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

function identity(size: number, scale: number): number[][] {
  return Array.from({ length: size }, (_, i) =>
    Array.from({ length: size }, (_, j) => (i === j ? scale : 0)),
  );
}

/** Gaussian elimination with partial pivoting: x with a·x = b. */
function solve(a: readonly (readonly number[])[], b: readonly number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] ?? 0]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++)
      if (Math.abs(m[row]?.[col] ?? 0) > Math.abs(m[pivot]?.[col] ?? 0)) pivot = row;
    [m[col], m[pivot]] = [m[pivot] as number[], m[col] as number[]];
    const top = m[col] as number[];
    const lead = top[col] ?? 0;
    if (Math.abs(lead) < 1e-15) continue;
    for (let row = 0; row < n; row++) {
      if (row === col) continue;
      const current = m[row] as number[];
      const factor = (current[col] ?? 0) / lead;
      if (factor === 0) continue;
      for (let k = col; k <= n; k++) current[k] = (current[k] ?? 0) - factor * (top[k] ?? 0);
    }
  }
  return m.map((row, i) => {
    const lead = row[i] ?? 0;
    return Math.abs(lead) < 1e-15 ? 0 : (row[n] ?? 0) / lead;
  });
}
