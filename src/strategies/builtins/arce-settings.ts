import type { ConfigFile } from "../../config/schema.js";

/** `[arce]` with defaults applied. */
export interface ArceSettings {
  readonly fusion: "weighted" | "rrf";
  readonly keywordWeight: number;
  /** null: the embedder's quality. */
  readonly semanticWeight: number | null;
  readonly rrfK: number;
  readonly candidates: number;
  readonly expand: boolean;
  /** Candidates re-scored by the reranker, when one is configured. */
  readonly rerankTop: number;
}

export function resolveArceSettings(files: readonly { config: ConfigFile }[]): ArceSettings {
  let arce: NonNullable<ConfigFile["arce"]> = {};
  let rerankTop: number | undefined;
  for (const { config } of files) {
    arce = { ...arce, ...config.arce };
    rerankTop = config.rerank?.top_n ?? rerankTop;
  }
  return {
    fusion: arce.fusion ?? "weighted",
    keywordWeight: arce.keyword_weight ?? 1,
    semanticWeight: arce.semantic_weight ?? null,
    rrfK: arce.rrf_k ?? 60,
    candidates: arce.candidates ?? 100,
    expand: arce.expand ?? true,
    rerankTop: rerankTop ?? 30,
  };
}
