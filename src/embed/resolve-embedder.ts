import type { Embedder } from "../core/embedder.js";
import { UsageError } from "../core/errors.js";
import { requireFeature } from "../optional-packages.js";
import { EMBEDDER_NAMES, type EmbedderName } from "./embedder-names.js";
import type { EmbeddingSettings } from "./embedding-settings.js";

export interface EmbedderChoice {
  readonly name: EmbedderName;
  readonly reason: string;
}

const OFF =
  "no embedder configured: keyword search only (set [embeddings] provider in ctx.toml, or pass --embedder use-lite or openai-compatible)";

/**
 * The embedder a run uses: `--embedder` (or CTX_EMBEDDER), then `[embeddings]
 * provider`, else none. Embeddings are opt-in: the only model that ships in npm
 * (use-lite) takes ~20 minutes on a 16k-chunk repository and barely helps code.
 */
export function resolveEmbedder(
  explicit: string | undefined,
  settings: EmbeddingSettings,
  env: NodeJS.ProcessEnv,
): EmbedderChoice {
  const chosen = explicit ?? (env.CTX_EMBEDDER || undefined);
  if (chosen !== undefined) {
    if (!(EMBEDDER_NAMES as readonly string[]).includes(chosen)) {
      throw new UsageError(
        `unknown embedder "${chosen}"; use one of: ${EMBEDDER_NAMES.join(", ")}`,
      );
    }
    return {
      name: chosen as EmbedderName,
      reason: explicit !== undefined ? "chosen with --embedder" : "CTX_EMBEDDER is set",
    };
  }
  if (settings.provider) return { name: settings.provider, reason: `set in ${settings.source}` };
  return { name: "none", reason: OFF };
}

/** Builds the chosen embedder (asking an API model for its dimension when not configured); null for none. */
export async function createEmbedder(
  choice: EmbedderChoice,
  settings: EmbeddingSettings,
  env: NodeJS.ProcessEnv,
): Promise<Embedder | null> {
  // Each adapter (and its SDK) is imported only when chosen.
  switch (choice.name) {
    case "none":
      return null;
    case "use-lite": {
      requireFeature("use-lite", `the use-lite embedder (${choice.reason})`);
      const { UseLiteEmbedder } = await import("./use-lite-embedder.js");
      return new UseLiteEmbedder(settings.quality ?? undefined);
    }
    case "openai-compatible": {
      const { OpenAiEmbedder } = await import("./openai-embedder.js");
      const keyVariable = settings.apiKeyEnv ?? "OPENAI_API_KEY";
      const options = {
        model: settings.model ?? "text-embedding-3-small",
        baseUrl: settings.baseUrl ?? env.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
        apiKey: env[keyVariable] || "not-needed",
        batchSize: settings.batchSize,
        maxInputTokens: settings.maxInputTokens,
        quality: settings.quality ?? 0.7,
        timeoutMs: settings.requestTimeoutMs,
        retry: { maxRetries: 3, baseMs: 1000, maxMs: 30_000 },
      };
      const dimensions = settings.dimensions ?? (await OpenAiEmbedder.probeDimensions(options));
      return new OpenAiEmbedder({ ...options, dimensions });
    }
    case "onnx": {
      requireFeature("onnx", `the onnx embedder (${choice.reason})`);
      const model = settings.modelPath ?? settings.model;
      if (!model)
        throw new UsageError(
          "the onnx embedder needs [embeddings] model_path: a local model folder",
        );
      const { OnnxEmbedder } = await import("./onnx-embedder.js");
      return new OnnxEmbedder({
        model,
        allowDownload: settings.allowDownload,
        batchSize: settings.batchSize,
        maxInputTokens: settings.maxInputTokens,
        quality: settings.quality ?? 0.6,
        baseDir: settings.baseDir,
      });
    }
  }
}
