/** The embedders `[embeddings] provider` and `--embedder` name. */
export const EMBEDDER_NAMES = ["use-lite", "openai-compatible", "onnx", "none"] as const;
export type EmbedderName = (typeof EMBEDDER_NAMES)[number];
