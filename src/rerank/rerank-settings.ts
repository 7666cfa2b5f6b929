import { UsageError } from "../core/errors.js";
import type { Reranker } from "../core/reranker.js";
import { DEFAULT_RERANK_URLS, HttpReranker, type RerankProvider } from "./http-reranker.js";
import type { RerankSection } from "./rerank-schema.js";

/** `[rerank]` with defaults applied; provider null: no reranker. */
export interface RerankSettings {
  readonly provider: RerankProvider | null;
  readonly baseUrl: string | null;
  readonly model: string | null;
  readonly apiKeyEnv: string | null;
  readonly timeoutMs: number;
  /** Candidates of the ranking's top re-scored per request. */
  readonly topN: number;
}

export function resolveRerankSettings(
  files: readonly { config: { readonly rerank?: RerankSection | undefined } }[],
): RerankSettings {
  let merged: RerankSection = {};
  for (const { config } of files) merged = { ...merged, ...config.rerank };
  return {
    provider: merged.provider ?? null,
    baseUrl: merged.base_url ?? null,
    model: merged.model ?? null,
    apiKeyEnv: merged.api_key_env ?? null,
    timeoutMs: (merged.request_timeout_seconds ?? 30) * 1000,
    topN: merged.top_n ?? 30,
  };
}

const DEFAULT_MODELS: Readonly<Record<RerankProvider, string>> = {
  cohere: "rerank-v3.5",
  voyage: "rerank-2",
  jina: "jina-reranker-v2-base-multilingual",
  tei: "",
  "openai-compatible": "",
};

/** The configured reranker, or null. */
export function createReranker(settings: RerankSettings, env: NodeJS.ProcessEnv): Reranker | null {
  const { provider } = settings;
  if (!provider) return null;
  const url = settings.baseUrl
    ? `${settings.baseUrl.replace(/\/+$/, "")}/rerank`
    : DEFAULT_RERANK_URLS[provider];
  if (!url)
    throw new UsageError(`[rerank] provider "${provider}" needs base_url (the server's address)`);
  const keyVariable = settings.apiKeyEnv ?? `${provider.toUpperCase().replace(/-/g, "_")}_API_KEY`;
  return new HttpReranker({
    provider,
    url,
    model: settings.model ?? DEFAULT_MODELS[provider],
    apiKey: env[keyVariable] || null,
    timeoutMs: settings.timeoutMs,
    topN: settings.topN,
    retry: { maxRetries: 2, baseMs: 500, maxMs: 5000 },
  });
}
