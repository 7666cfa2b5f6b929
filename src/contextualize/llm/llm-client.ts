import { CtxError } from "../../core/errors.js";

/** One model call: instructions, the (cacheable) document, and the question about its chunks. */
export interface LlmRequest {
  readonly instructions: string;
  readonly document: string;
  readonly prompt: string;
  readonly maxOutputTokens: number;
}

export interface LlmUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

export interface LlmResponse {
  readonly text: string;
  readonly usage: LlmUsage;
}

/** A chat model behind one provider's API (or SDK): one call, no retries of its own. */
export interface LlmClient {
  readonly provider: string;
  readonly model: string;
  complete(request: LlmRequest, signal?: AbortSignal): Promise<LlmResponse>;
}

export type LlmFailureKind =
  | "rate-limit"
  | "server"
  | "timeout"
  | "network"
  | "auth"
  | "bad-request"
  | "bad-response"
  | "aborted";

const RETRYABLE: ReadonlySet<LlmFailureKind> = new Set([
  "rate-limit",
  "server",
  "timeout",
  "network",
]);

/** A model call failed; `kind` says whether retrying can help. */
export class LlmCallError extends CtxError {
  readonly retryable: boolean;

  constructor(
    readonly kind: LlmFailureKind,
    message: string,
    readonly retryAfterMs: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(`llm_${kind}`, message, options);
    this.retryable = RETRYABLE.has(kind);
  }
}

/** Reads `retry-after` (seconds or an HTTP date) or `retry-after-ms`, in milliseconds. */
export function retryAfterMs(
  headers: { get(name: string): string | null } | undefined,
): number | null {
  if (!headers) return null;
  const ms = headers.get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get("retry-after");
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : null;
}

/** The failure kind for an HTTP status from a model API. */
export function kindForStatus(status: number): LlmFailureKind {
  if (status === 429) return "rate-limit";
  if (status === 401 || status === 403) return "auth";
  if (status === 408) return "timeout";
  if (status >= 500) return "server";
  return "bad-request";
}
