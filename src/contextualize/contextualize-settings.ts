import type { GeneratorName } from "./generator-names.js";

/** `[contextualize]` with defaults applied. */
export interface ContextualizeSettings {
  /** null: not configured, the priority chain decides. */
  readonly generator: GeneratorName | null;
  readonly model: string | null;
  readonly baseUrl: string | null;
  readonly apiKeyEnv: string | null;
  readonly batchSize: number;
  readonly concurrency: number;
  readonly maxRetries: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  readonly requestTimeoutMs: number;
  readonly maxDocumentTokens: number;
  readonly maxContextTokens: number;
  /** The config file that set `generator`, for messages. */
  readonly source: string | null;
}

/** `[contextualize]` as one config file sets it (config/schema.ts checks it). */
export interface ContextualizeSection {
  readonly generator?: GeneratorName | undefined;
  readonly model?: string | undefined;
  readonly base_url?: string | undefined;
  readonly api_key_env?: string | undefined;
  readonly batch_size?: number | undefined;
  readonly concurrency?: number | undefined;
  readonly max_retries?: number | undefined;
  readonly retry_base_seconds?: number | undefined;
  readonly retry_max_seconds?: number | undefined;
  readonly request_timeout_seconds?: number | undefined;
  readonly max_document_tokens?: number | undefined;
  readonly max_context_tokens?: number | undefined;
}

/** Merges `[contextualize]` across config files (later wins key by key) and applies defaults. */
export function resolveContextualizeSettings(
  files: readonly {
    path: string;
    config: { readonly contextualize?: ContextualizeSection | undefined };
  }[],
): ContextualizeSettings {
  let merged: ContextualizeSection = {};
  let source: string | null = null;
  for (const { path, config } of files) {
    if (!config.contextualize) continue;
    merged = { ...merged, ...config.contextualize };
    if (config.contextualize.generator) source = path;
  }
  return {
    generator: merged.generator ?? null,
    model: merged.model ?? null,
    baseUrl: merged.base_url ?? null,
    apiKeyEnv: merged.api_key_env ?? null,
    batchSize: merged.batch_size ?? 10,
    concurrency: merged.concurrency ?? 5,
    maxRetries: merged.max_retries ?? 3,
    retryBaseMs: (merged.retry_base_seconds ?? 1) * 1000,
    retryMaxMs: (merged.retry_max_seconds ?? 30) * 1000,
    requestTimeoutMs: (merged.request_timeout_seconds ?? 60) * 1000,
    maxDocumentTokens: merged.max_document_tokens ?? 8000,
    maxContextTokens: merged.max_context_tokens ?? 100,
    source,
  };
}
