import {
  type ChunkForContext,
  ContextBatchError,
  type ContextGenerator,
  type ContextOptions,
} from "../../core/context-generator.js";
import type { TokenCounter } from "../../core/token-counter.js";
import { maskDocumentAndChunks } from "../../secrets/mask-secrets.js";
import { Semaphore } from "../../strategies/semaphore.js";
import { capContext, truncateDocument } from "../truncate-document.js";
import type { UsageMeter } from "../usage-meter.js";
import { AdaptiveLimiter } from "./adaptive-limiter.js";
import { LlmCallError, type LlmClient, type LlmRequest } from "./llm-client.js";
import {
  batchPrompt,
  INSTRUCTIONS,
  PROMPT_VERSION,
  parseBatchAnswer,
  singlePrompt,
} from "./prompts.js";
import { type RetryPolicy, withRetries } from "./retry.js";

export interface LlmGeneratorSettings {
  readonly batchSize: number;
  readonly concurrency: number;
  readonly retry: RetryPolicy;
  readonly maxDocumentTokens: number;
  readonly maxContextTokens: number;
}

/**
 * Contextual retrieval with a chat model: the document (masked, cut to its head
 * and tail when long) and N numbered chunks per prompt, answered as a JSON array
 * of N contexts; a batch whose answer is not exactly that is asked again one
 * chunk per call. Calls are bounded by an adaptive limiter shared by the whole
 * run and retried with backoff; chunks that still fail are reported, not guessed.
 */
export class LlmContextGenerator implements ContextGenerator {
  readonly name: string;
  readonly model: string;
  readonly promptVersion = PROMPT_VERSION;
  readonly remote = true;
  private readonly limiter: AdaptiveLimiter;

  constructor(
    private readonly client: LlmClient,
    private readonly settings: LlmGeneratorSettings,
    private readonly counter: TokenCounter,
    private readonly usage: UsageMeter,
  ) {
    this.name = client.provider;
    this.model = client.model;
    this.limiter = new AdaptiveLimiter(settings.concurrency);
  }

  async contextualizeBatch(
    chunks: readonly ChunkForContext[],
    documentText: string,
    options: ContextOptions = {},
  ): Promise<string[]> {
    // Secrets are found in the whole document: a key split across two chunks
    // is masked in both, though neither half alone looks like a key.
    const masked = await maskDocumentAndChunks(documentText, chunks, chunks[0]?.path || undefined);
    const document = truncateDocument(
      masked.document.text,
      this.settings.maxDocumentTokens,
      this.counter,
    );
    const texts = masked.chunks.map((chunk) => chunk.text);
    const local = new Semaphore(options.concurrency ?? this.settings.concurrency);
    const contexts: (string | null)[] = chunks.map(() => null);
    const reasons: (string | null)[] = chunks.map(() => null);
    const groups: number[][] = [];
    for (let start = 0; start < chunks.length; start += this.settings.batchSize) {
      groups.push(
        chunks.slice(start, start + this.settings.batchSize).map((_, offset) => start + offset),
      );
    }
    await Promise.all(
      groups.map(async (group) => {
        const batch = await this.askBatch(
          document,
          group.map((index) => texts[index] as string),
          local,
          options.signal,
        );
        if (batch) {
          group.forEach((index, position) => {
            contexts[index] = batch[position] as string;
          });
          return;
        }
        await Promise.all(
          group.map(async (index) => {
            try {
              contexts[index] = await this.askSingle(
                document,
                texts[index] as string,
                local,
                options.signal,
              );
            } catch (error) {
              reasons[index] = describe(error);
            }
          }),
        );
      }),
    );
    if (reasons.some((reason) => reason !== null)) throw new ContextBatchError(contexts, reasons);
    return contexts as string[];
  }

  /** The batch's contexts, or null when the answer is unusable or the call failed (singles follow). */
  private async askBatch(
    document: string,
    chunks: readonly string[],
    local: Semaphore,
    signal?: AbortSignal,
  ): Promise<string[] | null> {
    if (chunks.length === 1) return null;
    const request: LlmRequest = {
      instructions: INSTRUCTIONS,
      document,
      prompt: batchPrompt(chunks),
      maxOutputTokens: chunks.length * (this.settings.maxContextTokens + 20) + 50,
    };
    try {
      const text = await this.call(request, "batch", local, signal);
      const parsed = parseBatchAnswer(text, chunks.length);
      if (!parsed) this.usage.batchFallback();
      return (
        parsed?.map((context) =>
          capContext(context, this.settings.maxContextTokens, this.counter),
        ) ?? null
      );
    } catch (error) {
      if (signal?.aborted) throw error;
      this.usage.batchFallback();
      return null;
    }
  }

  private async askSingle(
    document: string,
    chunk: string,
    local: Semaphore,
    signal?: AbortSignal,
  ): Promise<string> {
    const request: LlmRequest = {
      instructions: INSTRUCTIONS,
      document,
      prompt: singlePrompt(chunk),
      maxOutputTokens: this.settings.maxContextTokens + 20,
    };
    const text = await this.call(request, "single", local, signal);
    return capContext(text, this.settings.maxContextTokens, this.counter);
  }

  private call(
    request: LlmRequest,
    kind: "batch" | "single",
    local: Semaphore,
    signal?: AbortSignal,
  ): Promise<string> {
    return withRetries(
      async () => {
        const release = await local.acquire(signal);
        try {
          return await this.limiter.run(async () => {
            try {
              const response = await this.client.complete(request, signal);
              this.usage.call(kind, response.usage);
              this.limiter.succeeded();
              return response.text;
            } catch (error) {
              if (error instanceof LlmCallError) {
                this.usage.failure(error.kind);
                if (error.kind === "rate-limit") this.limiter.rateLimited();
              }
              throw error;
            }
          });
        } finally {
          release();
        }
      },
      this.settings.retry,
      signal,
      () => this.usage.retry(),
    );
  }
}

function describe(error: unknown): string {
  if (error instanceof LlmCallError) return `${error.kind}: ${error.message}`;
  return (error as Error).message ?? String(error);
}
