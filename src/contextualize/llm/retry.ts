import { LlmCallError } from "./llm-client.js";

export interface RetryPolicy {
  readonly maxRetries: number;
  readonly baseMs: number;
  readonly maxMs: number;
  /** 0..1; replaceable in tests. */
  readonly random?: () => number;
}

/**
 * Calls `attempt` until it succeeds, retrying retryable model errors up to
 * `maxRetries` times: after the server's `retry-after` when it sent one, else
 * after an exponential delay (base × 2^n, capped) with ±50 % jitter.
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  signal?: AbortSignal,
  onRetry?: (error: LlmCallError, delayMs: number) => void,
): Promise<T> {
  const random = policy.random ?? Math.random;
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (
        !(error instanceof LlmCallError) ||
        !error.retryable ||
        n >= policy.maxRetries ||
        signal?.aborted
      )
        throw error;
      const backoff = Math.min(policy.maxMs, policy.baseMs * 2 ** n) * (0.5 + random());
      const delay = error.retryAfterMs ?? Math.min(policy.maxMs, backoff);
      onRetry?.(error, delay);
      await sleep(delay, signal);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
