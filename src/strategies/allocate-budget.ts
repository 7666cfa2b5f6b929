export interface AllocationInput {
  readonly name: string;
  readonly confidence: number;
  readonly quality: number;
  /** Largest share of the total this strategy may get, 0..1. */
  readonly maxShare: number;
}

/**
 * Splits `total` tokens across strategies in proportion to confidence × quality,
 * never giving one more than its cap; what a cap holds back goes to the others in
 * the same proportions. Whole tokens; the sum never exceeds `total`.
 */
export function allocateBudget(
  inputs: readonly AllocationInput[],
  total: number,
): Map<string, number> {
  const allocation = new Map<string, number>();
  if (inputs.length === 0) return allocation;
  const weightOf = (input: AllocationInput) => Math.max(input.confidence * input.quality, 1e-6);
  let open = [...inputs];
  let remaining = total;
  const shares = new Map<string, number>();
  // Water-filling: fix capped strategies at their cap, share the rest among the others.
  for (let round = 0; round < inputs.length && open.length > 0; round++) {
    const weight = open.reduce((sum, input) => sum + weightOf(input), 0);
    const capped = open.filter(
      (input) => (remaining * weightOf(input)) / weight > input.maxShare * total,
    );
    if (capped.length === 0) {
      for (const input of open) shares.set(input.name, (remaining * weightOf(input)) / weight);
      break;
    }
    for (const input of capped) {
      shares.set(input.name, input.maxShare * total);
      remaining -= input.maxShare * total;
    }
    open = open.filter((input) => !capped.includes(input));
  }
  for (const input of inputs) allocation.set(input.name, Math.floor(shares.get(input.name) ?? 0));
  return allocation;
}
