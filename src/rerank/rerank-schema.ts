/**
 * The feature's config section, checked by config/schema.ts when a config
 * file is read; only that (lazily loaded) module imports this one, so that zod
 * loads only with a config file. The feature's own code imports the type alone.
 */
import { z } from "zod";
import { envVariableName } from "../contextualize/contextualize-schema.js";
import { RERANK_PROVIDERS } from "./http-reranker.js";

/** `[rerank]` as one config file sets it: the reranking API. */
export const rerankSectionSchema = z.strictObject({
  /** cohere, voyage, jina, tei (Hugging Face text-embeddings-inference) or openai-compatible (vLLM /v1/rerank). */
  provider: z.enum(RERANK_PROVIDERS).optional(),
  /** The rerank endpoint's base URL (for tei and openai-compatible, required). */
  base_url: z.url().optional(),
  model: z.string().min(1).optional(),
  api_key_env: envVariableName.optional(),
  /** Candidates re-scored per request (default 30). */
  top_n: z.number().int().min(1).max(1000).optional(),
  request_timeout_seconds: z.number().positive().optional(),
});

export type RerankSection = z.infer<typeof rerankSectionSchema>;
