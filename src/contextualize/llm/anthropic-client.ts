import Anthropic from "@anthropic-ai/sdk";
import type { LlmClient, LlmRequest, LlmResponse } from "./llm-client.js";
import { LlmCallError } from "./llm-client.js";
import { documentBlock } from "./prompts.js";
import { fromSdkError } from "./sdk-errors.js";

export interface AnthropicClientOptions {
  readonly apiKey: string;
  readonly model: string;
  readonly baseUrl: string | null;
  readonly timeoutMs: number;
}

/**
 * The Messages API through the official SDK. The document goes in its own
 * system block marked `cache_control: ephemeral`, so every batch of the same
 * document reads it from the prompt cache instead of paying for it again.
 */
export class AnthropicClient implements LlmClient {
  readonly provider = "anthropic";
  readonly model: string;
  private readonly client: Anthropic;

  constructor(options: AnthropicClientOptions) {
    this.model = options.model;
    this.client = new Anthropic({
      apiKey: options.apiKey,
      ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
      // Retries are ours (backoff, retry-after, adaptive concurrency), not the SDK's.
      maxRetries: 0,
      timeout: options.timeoutMs,
    });
  }

  async complete(request: LlmRequest, signal?: AbortSignal): Promise<LlmResponse> {
    let message: Anthropic.Message;
    try {
      message = await this.client.messages.create(
        {
          model: this.model,
          max_tokens: request.maxOutputTokens,
          system: [
            { type: "text", text: request.instructions },
            {
              type: "text",
              text: documentBlock(request.document),
              cache_control: { type: "ephemeral" },
            },
          ],
          messages: [{ role: "user", content: request.prompt }],
        },
        signal ? { signal } : {},
      );
    } catch (error) {
      throw fromSdkError(error, this.provider, signal);
    }
    const text = message.content
      .map((block) => (block.type === "text" ? block.text : ""))
      .join("")
      .trim();
    if (text.length === 0)
      throw new LlmCallError("bad-response", "anthropic: the answer had no text");
    const usage = message.usage;
    return {
      text,
      usage: {
        inputTokens: usage.input_tokens,
        outputTokens: usage.output_tokens,
        cacheReadTokens: usage.cache_read_input_tokens ?? 0,
        cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
      },
    };
  }
}
