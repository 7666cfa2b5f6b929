import type { ArceSection } from "./arce-schema.js";
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

/** `[arce]` across config files, later files winning, and `[rerank]`'s `top_n`. */
export function resolveArceSettings(
  files: readonly {
    config: {
      readonly arce?: ArceSection | undefined;
      readonly rerank?: { readonly top_n?: number | undefined } | undefined;
    };
  }[],
): ArceSettings {
  let arce: ArceSection = {};
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
