import OpenAI from "openai";
import { LlmCallError } from "../contextualize/llm/llm-client.js";
import { type RetryPolicy, withRetries } from "../contextualize/llm/retry.js";
import { fromSdkError } from "../contextualize/llm/sdk-errors.js";
import { type Embedder, normalize } from "../core/embedder.js";
import { maskSecrets } from "../secrets/mask-secrets.js";

export interface OpenAiEmbedderOptions {
  readonly model: string;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly dimensions: number;
  readonly batchSize: number;
  readonly maxInputTokens: number;
  readonly quality: number;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
}

/** Characters per token assumed when cutting long inputs (errs short). */
const CHARS_PER_TOKEN = 3;

/**
 * `/v1/embeddings` at any OpenAI-compatible base URL (OpenAI, Ollama, vLLM, TEI,
 * LM Studio), floats requested explicitly, secrets masked before sending,
 * retried with backoff on rate limits and server errors.
 */
export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly batchSize: number;
  readonly maxInputTokens: number;
  readonly remote = true;
  readonly quality: number;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiEmbedderOptions) {
    this.id = `openai-compatible:${options.model}:${options.dimensions}`;
    this.dimensions = options.dimensions;
    this.batchSize = options.batchSize;
    this.maxInputTokens = options.maxInputTokens;
    this.quality = options.quality;
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      maxRetries: 0,
      timeout: options.timeoutMs,
    });
  }

  /** Asks the model for one vector to learn its dimension. */
  static async probeDimensions(
    options: Omit<OpenAiEmbedderOptions, "dimensions">,
  ): Promise<number> {
    const probe = new OpenAiEmbedder({ ...options, dimensions: 0 });
    const [vector] = await probe.request(["dimension probe"]);
    if (!vector || vector.length === 0)
      throw new LlmCallError("bad-response", "openai-compatible embeddings: empty vector");
    return vector.length;
  }

  async embed(
    texts: readonly string[],
    options: { signal?: AbortSignal } = {},
  ): Promise<Float32Array[]> {
    const prepared = await Promise.all(
      texts.map(
        async (text) =>
          (await maskSecrets(text.slice(0, this.maxInputTokens * CHARS_PER_TOKEN))).text,
      ),
    );
    const vectors: Float32Array[] = [];
    for (let start = 0; start < prepared.length; start += this.batchSize) {
      const batch = prepared.slice(start, start + this.batchSize);
      vectors.push(
        ...(await withRetries(
          () => this.request(batch, options.signal),
          this.options.retry,
          options.signal,
        )),
      );
    }
    for (const vector of vectors) {
      if (this.dimensions > 0 && vector.length !== this.dimensions) {
        throw new LlmCallError(
          "bad-response",
          `openai-compatible embeddings: expected ${this.dimensions} dimensions, got ${vector.length}`,
        );
      }
    }
    return vectors;
  }

  private async request(input: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    let response: OpenAI.Embeddings.CreateEmbeddingResponse;
    try {
      response = await this.client.embeddings.create(
        { model: this.options.model, input, encoding_format: "float" },
        signal ? { signal } : {},
      );
    } catch (error) {
      throw fromSdkError(error, "openai-compatible embeddings", signal);
    }
    if (response.data.length !== input.length) {
      throw new LlmCallError(
        "bad-response",
        `openai-compatible embeddings: ${response.data.length} vectors for ${input.length} texts`,
      );
    }
    return [...response.data]
      .sort((a, b) => a.index - b.index)
      .map((item) => normalize(Float32Array.from(item.embedding as number[])));
  }
}
