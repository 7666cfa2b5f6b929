/**
 * The feature's config section, checked by config/schema.ts when a config
 * file is read; only that (lazily loaded) module imports this one, so that zod
 * loads only with a config file. The feature's own code imports the type alone.
 */
import { z } from "zod";
import { GENERATOR_NAMES } from "./generator-names.js";

/** The name of an environment variable (keys never go in config files). */
export const envVariableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name");

/** `[contextualize]` as one config file sets it: the context generator and its model calls. */
export const contextualizeSectionSchema = z.strictObject({
  /** anthropic, claude-agent-sdk, openai-compatible, structural (no model) or none (contexts off). */
  generator: z.enum(GENERATOR_NAMES).optional(),
  /** Model id; defaults to a small fast one per provider. */
  model: z.string().min(1).optional(),
  /** API base URL (OpenAI-compatible servers: Ollama, vLLM, llama.cpp, LM Studio; or an Anthropic proxy). */
  base_url: z.url().optional(),
  /** Name of the environment variable that holds the API key (never the key itself). */
  api_key_env: envVariableName.optional(),
  /** Chunks per prompt (default 10). */
  batch_size: z.number().int().min(1).max(50).optional(),
  /** Model calls in flight at once (default 5). */
  concurrency: z.number().int().min(1).max(64).optional(),
  /** Retries of a failed call (default 3). */
  max_retries: z.number().int().min(0).max(10).optional(),
  /** First backoff delay in seconds (default 1), doubled per retry with jitter. */
  retry_base_seconds: z.number().min(0).optional(),
  /** Longest backoff delay in seconds (default 30). */
  retry_max_seconds: z.number().min(0).optional(),
  /** A call that takes longer is abandoned and retried (default 60). */
  request_timeout_seconds: z.number().positive().optional(),
  /** Longer documents are cut to their head and tail (default 8000). */
  max_document_tokens: z.number().int().min(256).optional(),
  /** Longest context kept (default 100). */
  max_context_tokens: z.number().int().min(10).max(2000).optional(),
});

export type ContextualizeSection = z.infer<typeof contextualizeSectionSchema>;
