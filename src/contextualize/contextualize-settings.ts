import type { ContextualizeSection } from "./contextualize-schema.js";
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
