/**
 * The feature's config section, checked by config/schema.ts when a config
 * file is read; only that (lazily loaded) module imports this one, so that zod
 * loads only with a config file. The feature's own code imports the type alone.
 */
import { z } from "zod";
import { envVariableName } from "../contextualize/contextualize-schema.js";
import { EMBEDDER_NAMES } from "./embedder-names.js";

/** `[embeddings]` as one config file sets it: the embedder and its calls. */
export const embeddingsSectionSchema = z.strictObject({
  /** use-lite (Universal Sentence Encoder lite, ships in npm), openai-compatible, onnx (a local model) or none. */
  provider: z.enum(EMBEDDER_NAMES).optional(),
  /** Model id (openai-compatible) or name. */
  model: z.string().min(1).optional(),
  /** Base URL of an OpenAI-compatible /v1/embeddings server (OpenAI, Ollama, vLLM, TEI, LM Studio). */
  base_url: z.url().optional(),
  /** Name of the environment variable holding the API key. */
  api_key_env: envVariableName.optional(),
  /** Vector size; asked of the model when not given. */
  dimensions: z.number().int().min(8).max(8192).optional(),
  /** Texts per call (default 32). */
  batch_size: z.number().int().min(1).max(2048).optional(),
  /** Longer texts are cut to this many tokens (default 512). */
  max_input_tokens: z.number().int().min(16).max(32768).optional(),
  /** Weight of semantic signals, 0..1 (default: the embedder's measured quality). */
  quality: z.number().min(0).max(1).optional(),
  /** Vectors per embedder from which search uses an HNSW index instead of exact search (default 100000). */
  ann_threshold: z.number().int().min(1).optional(),
  /** ONNX: a local model folder (or a hub id with allow_download). */
  model_path: z.string().min(1).optional(),
  /** ONNX: let the model be downloaded from the hub (default false). */
  allow_download: z.boolean().optional(),
  /** A call that takes longer is abandoned and retried (default 60). */
  request_timeout_seconds: z.number().positive().optional(),
});

export type EmbeddingsSection = z.infer<typeof embeddingsSectionSchema>;
