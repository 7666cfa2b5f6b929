import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type { Embedder } from "../core/embedder.js";
import { CtxError } from "../core/errors.js";
import { installCommand } from "../optional-packages.js";

/** The parts of `@huggingface/transformers` used here, typed locally: the package is optional. */
interface Transformers {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline(
    task: "feature-extraction",
    model: string,
    options: { dtype: string },
  ): Promise<
    (
      texts: string[],
      options: { pooling: "mean"; normalize: boolean },
    ) => Promise<{ dims: number[]; data: Float32Array }>
  >;
}

export interface OnnxEmbedderOptions {
  /** A local model folder (config.json, tokenizer.json, onnx/model.onnx), or a hub id with downloads allowed. */
  readonly model: string;
  readonly allowDownload: boolean;
  readonly batchSize: number;
  readonly maxInputTokens: number;
  readonly quality: number;
  /** Folder relative model paths are taken from (the project root). */
  readonly baseDir: string;
}

const PACKAGE = "@huggingface/transformers";

/**
 * A local ONNX sentence model through transformers.js: mean pooling over the
 * last hidden state and L2 normalisation, as sentence-transformers models'
 * cards prescribe. Offline unless `allow_download` is set. The package is an
 * optional dependency, imported on first use.
 */
export class OnnxEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly batchSize: number;
  readonly maxInputTokens: number;
  readonly remote = false;
  readonly quality: number;
  private extractor: ReturnType<Transformers["pipeline"]> | null = null;
  private readonly folder: string | null;

  constructor(private readonly options: OnnxEmbedderOptions) {
    const local =
      isAbsolute(options.model) || options.model.startsWith(".")
        ? resolve(options.baseDir, options.model)
        : null;
    this.folder =
      local ??
      (existsSync(resolve(options.baseDir, options.model))
        ? resolve(options.baseDir, options.model)
        : null);
    if (!this.folder && !options.allowDownload) {
      throw new CtxError(
        "embedder_model",
        `onnx model "${options.model}" is not a local folder; give model_path a folder with config.json, tokenizer.json and onnx/model.onnx, or set allow_download = true`,
      );
    }
    this.dimensions = this.folder ? hiddenSize(this.folder) : 0;
    this.id = `onnx:${basename(options.model)}:${this.dimensions}`;
    this.batchSize = options.batchSize;
    this.maxInputTokens = options.maxInputTokens;
    this.quality = options.quality;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const extractor = await this.load();
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const batch = texts
        .slice(start, start + this.batchSize)
        .map((text) => text.slice(0, this.maxInputTokens * 4));
      const output = await extractor(batch, { pooling: "mean", normalize: true });
      const width = output.dims[output.dims.length - 1] ?? 0;
      for (let row = 0; row < batch.length; row++)
        vectors.push(output.data.slice(row * width, (row + 1) * width));
    }
    return vectors;
  }

  private load(): ReturnType<Transformers["pipeline"]> {
    this.extractor ??= (async () => {
      let transformers: Transformers;
      try {
        transformers = (await import(PACKAGE)) as unknown as Transformers;
      } catch (error) {
        this.extractor = null;
        throw new CtxError(
          "embedder_missing",
          `the onnx embedder could not load ${PACKAGE} (${(error as Error).message.split("\n")[0]}): install it again with \`${installCommand("onnx")}\``,
        );
      }
      transformers.env.allowRemoteModels = this.options.allowDownload;
      transformers.env.allowLocalModels = true;
      if (this.folder) transformers.env.localModelPath = `${dirname(this.folder)}/`;
      const id = this.folder ? basename(this.folder) : this.options.model;
      return transformers.pipeline("feature-extraction", id, { dtype: "fp32" });
    })();
    return this.extractor;
  }
}

/** The vector size a model folder declares. */
function hiddenSize(folder: string): number {
  try {
    const config = JSON.parse(readFileSync(join(folder, "config.json"), "utf8")) as {
      hidden_size?: number;
      dim?: number;
      d_model?: number;
    };
    const size = config.hidden_size ?? config.dim ?? config.d_model;
    if (typeof size === "number" && size > 0) return size;
  } catch (error) {
    throw new CtxError(
      "embedder_model",
      `cannot read ${join(folder, "config.json")}: ${(error as Error).message}`,
    );
  }
  throw new CtxError("embedder_model", `${join(folder, "config.json")} names no hidden_size`);
}
