import { UsageError } from "../core/errors.js";
import type { TokenCounter } from "../core/token-counter.js";
import { estimateCounter } from "./estimate-counter.js";
import { o200kCounter } from "./o200k-counter.js";

export const TOKEN_COUNTERS = ["o200k", "estimate"] as const;
export type TokenCounterName = (typeof TOKEN_COUNTERS)[number];

/** The counter by its configured name: exact o200k BPE (default) or the fast estimate. */
export function createTokenCounter(name: string): TokenCounter {
  if (name === "o200k") return o200kCounter;
  if (name === "estimate") return estimateCounter;
  throw new UsageError(`unknown token counter "${name}"; use one of: ${TOKEN_COUNTERS.join(", ")}`);
}
