import { kindForStatus, LlmCallError, retryAfterMs } from "./llm-client.js";

/** The shape both official SDKs (Anthropic, OpenAI) give their API errors. */
interface SdkApiError extends Error {
  readonly status?: number | undefined;
  readonly headers?: { get(name: string): string | null } | undefined;
}

/**
 * Maps an SDK error to an LlmCallError: HTTP errors by status (with
 * `retry-after`), timeouts, connection failures and aborts by class name, as
 * both SDKs name them alike.
 */
export function fromSdkError(error: unknown, provider: string, signal?: AbortSignal): LlmCallError {
  if (error instanceof LlmCallError) return error;
  const sdkError = error as SdkApiError;
  const name = sdkError?.constructor?.name ?? "";
  const message = (sdkError?.message ?? String(error)).split("\n")[0];
  if (signal?.aborted || name === "APIUserAbortError") {
    return new LlmCallError("aborted", `${provider}: call aborted`, null, { cause: error });
  }
  if (name === "APIConnectionTimeoutError") {
    return new LlmCallError("timeout", `${provider}: no answer in time (${message})`, null, {
      cause: error,
    });
  }
  if (name === "APIConnectionError") {
    return new LlmCallError("network", `${provider}: cannot connect (${message})`, null, {
      cause: error,
    });
  }
  if (typeof sdkError?.status === "number") {
    const kind = kindForStatus(sdkError.status);
    const hint = kind === "auth" ? "; check the API key" : "";
    return new LlmCallError(
      kind,
      `${provider}: HTTP ${sdkError.status}: ${message}${hint}`,
      retryAfterMs(sdkError.headers),
      {
        cause: error,
      },
    );
  }
  return new LlmCallError("network", `${provider}: ${message}`, null, { cause: error });
}
