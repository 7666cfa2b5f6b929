import { dirname } from "node:path";
import type { EmbedderName } from "./embedder-names.js";
import type { EmbeddingsSection } from "./embedding-schema.js";

/** `[embeddings]` with defaults applied. */
export interface EmbeddingSettings {
  /** null: not configured (embeddings are off unless chosen). */
  readonly provider: EmbedderName | null;
  readonly model: string | null;
  readonly baseUrl: string | null;
  readonly apiKeyEnv: string | null;
  /** Vector size; probed from the model when not given. */
  readonly dimensions: number | null;
  readonly batchSize: number;
  readonly maxInputTokens: number;
  /** Overrides the embedder's measured quality (0..1), i.e. its weight in fusion. */
  readonly quality: number | null;
  /** ONNX: a local model folder, or a hub id when downloads are allowed. */
  readonly modelPath: string | null;
  readonly allowDownload: boolean;
  readonly requestTimeoutMs: number;
  readonly source: string | null;
  /** Folder of the config file that set model_path (relative paths start there). */
  readonly baseDir: string;
  /** Vectors per embedder from which search uses an HNSW index. */
  readonly annThreshold: number;
}

/** The settings of the config files in order (later files win), with defaults for what none sets. */
export function resolveEmbeddingSettings(
  files: readonly {
    path: string;
    config: { readonly embeddings?: EmbeddingsSection | undefined };
  }[],
): EmbeddingSettings {
  let merged: EmbeddingsSection = {};
  let source: string | null = null;
  let baseDir = process.cwd();
  for (const { path, config } of files) {
    if (!config.embeddings) continue;
    merged = { ...merged, ...config.embeddings };
    if (config.embeddings.provider) source = path;
    if (config.embeddings.model_path) baseDir = dirname(path);
  }
  return {
    provider: merged.provider ?? null,
    model: merged.model ?? null,
    baseUrl: merged.base_url ?? null,
    apiKeyEnv: merged.api_key_env ?? null,
    dimensions: merged.dimensions ?? null,
    batchSize: merged.batch_size ?? 32,
    maxInputTokens: merged.max_input_tokens ?? 512,
    quality: merged.quality ?? null,
    modelPath: merged.model_path ?? null,
    allowDownload: merged.allow_download ?? false,
    requestTimeoutMs: (merged.request_timeout_seconds ?? 60) * 1000,
    source,
    baseDir,
    annThreshold: merged.ann_threshold ?? 100_000,
  };
}
