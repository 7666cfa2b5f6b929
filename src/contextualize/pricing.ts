/** US dollars per million tokens. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
}

/** List prices of common small models, matched by model id prefix; a guide for dry runs, not a bill. */
const PRICES: readonly [prefix: string, price: ModelPrice][] = [
  ["claude-haiku-4-5", { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }],
  ["claude-3-5-haiku", { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 }],
  ["claude-3-haiku", { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheRead: 0.03 }],
  ["claude-sonnet-4", { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  ["claude-opus-4", { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 }],
  ["gpt-4o-mini", { input: 0.15, output: 0.6, cacheWrite: 0.15, cacheRead: 0.075 }],
  ["gpt-4o", { input: 2.5, output: 10, cacheWrite: 2.5, cacheRead: 1.25 }],
  ["gpt-4.1-nano", { input: 0.1, output: 0.4, cacheWrite: 0.1, cacheRead: 0.025 }],
  ["gpt-4.1-mini", { input: 0.4, output: 1.6, cacheWrite: 0.4, cacheRead: 0.1 }],
];

export function priceOf(model: string): ModelPrice | null {
  return PRICES.find(([prefix]) => model.startsWith(prefix))?.[1] ?? null;
}
