import OpenAI from "openai";
import type { LlmClient, LlmRequest, LlmResponse } from "./llm-client.js";
import { LlmCallError } from "./llm-client.js";
import { documentBlock } from "./prompts.js";
import { fromSdkError } from "./sdk-errors.js";

export interface OpenAiClientOptions {
  readonly apiKey: string;
  readonly model: string;
  readonly baseUrl: string;
  readonly timeoutMs: number;
}

/**
 * Chat completions at any OpenAI-compatible base URL: OpenAI, Ollama, vLLM,
 * llama.cpp server, LM Studio. The document leads the system message, so
 * servers with automatic prefix caching reuse it across a document's batches.
 */
export class OpenAiCompatibleClient implements LlmClient {
  readonly provider = "openai-compatible";
  readonly model: string;
  private readonly client: OpenAI;

  constructor(options: OpenAiClientOptions) {
    this.model = options.model;
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      maxRetries: 0,
      timeout: options.timeoutMs,
    });
  }

  async complete(request: LlmRequest, signal?: AbortSignal): Promise<LlmResponse> {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.client.chat.completions.create(
        {
          model: this.model,
          max_tokens: request.maxOutputTokens,
          temperature: 0,
          messages: [
            {
              role: "system",
              content: `${documentBlock(request.document)}\n\n${request.instructions}`,
            },
            { role: "user", content: request.prompt },
          ],
        },
        signal ? { signal } : {},
      );
    } catch (error) {
      throw fromSdkError(error, this.provider, signal);
    }
    const text = completion.choices[0]?.message?.content?.trim() ?? "";
    if (text.length === 0)
      throw new LlmCallError("bad-response", "openai-compatible: the answer had no text");
    const usage = completion.usage;
    return {
      text,
      usage: {
        inputTokens: usage?.prompt_tokens ?? 0,
        outputTokens: usage?.completion_tokens ?? 0,
        cacheReadTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
        cacheWriteTokens: 0,
      },
    };
  }
}
