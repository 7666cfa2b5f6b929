import { installCommand } from "../../optional-packages.js";
import type { LlmClient, LlmRequest, LlmResponse } from "./llm-client.js";
import { LlmCallError } from "./llm-client.js";
import { documentBlock } from "./prompts.js";

export interface ClaudeAgentClientOptions {
  readonly model: string;
  readonly timeoutMs: number;
  /** Environment for the Claude Code process (default: this process's). */
  readonly env?: Record<string, string | undefined>;
}

/** The parts of `@anthropic-ai/claude-agent-sdk` used here, typed locally: the package is optional. */
interface AgentSdk {
  query(params: { prompt: string; options?: Record<string, unknown> }): AsyncIterable<AgentMessage>;
}

interface AgentMessage {
  readonly type: string;
  readonly subtype?: string;
  readonly result?: string;
  readonly errors?: readonly string[];
  readonly usage?: {
    readonly input_tokens?: number;
    readonly output_tokens?: number;
    readonly cache_read_input_tokens?: number;
    readonly cache_creation_input_tokens?: number;
  };
}

const PACKAGE = "@anthropic-ai/claude-agent-sdk";

/**
 * Claude through `query()` of the Claude Agent SDK, for users signed in with
 * `CLAUDE_CODE_OAUTH_TOKEN` and no API key: one turn, no tools, no session
 * kept. The SDK is an optional dependency, imported on first use.
 */
export class ClaudeAgentClient implements LlmClient {
  readonly provider = "claude-agent-sdk";
  readonly model: string;
  private sdk: Promise<AgentSdk> | null = null;

  constructor(private readonly options: ClaudeAgentClientOptions) {
    this.model = options.model;
  }

  async complete(request: LlmRequest, signal?: AbortSignal): Promise<LlmResponse> {
    const sdk = await this.loadSdk();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const prompt = `${documentBlock(request.document)}\n\n${request.prompt}`;
      for await (const message of sdk.query({
        prompt,
        options: {
          model: this.model,
          maxTurns: 1,
          tools: [],
          allowedTools: [],
          systemPrompt: request.instructions,
          persistSession: false,
          abortController: controller,
          settingSources: [],
          ...(this.options.env ? { env: this.options.env } : {}),
        },
      })) {
        if (message.type !== "result") continue;
        if (message.subtype !== "success" || typeof message.result !== "string") {
          const detail = message.errors?.join("; ") || message.subtype || "no result";
          throw new LlmCallError("server", `claude-agent-sdk: the call failed (${detail})`);
        }
        const text = message.result.trim();
        if (text.length === 0)
          throw new LlmCallError("bad-response", "claude-agent-sdk: the answer had no text");
        return {
          text,
          usage: {
            inputTokens: message.usage?.input_tokens ?? 0,
            outputTokens: message.usage?.output_tokens ?? 0,
            cacheReadTokens: message.usage?.cache_read_input_tokens ?? 0,
            cacheWriteTokens: message.usage?.cache_creation_input_tokens ?? 0,
          },
        };
      }
      throw new LlmCallError(
        "bad-response",
        "claude-agent-sdk: the session ended without a result",
      );
    } catch (error) {
      if (error instanceof LlmCallError) throw error;
      if (controller.signal.aborted) {
        throw signal?.aborted
          ? new LlmCallError("aborted", "claude-agent-sdk: call aborted")
          : new LlmCallError(
              "timeout",
              `claude-agent-sdk: no answer in ${this.options.timeoutMs} ms`,
            );
      }
      throw new LlmCallError(
        "server",
        `claude-agent-sdk: ${(error as Error).message.split("\n")[0]}`,
        null,
        {
          cause: error,
        },
      );
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  private loadSdk(): Promise<AgentSdk> {
    this.sdk ??= import(PACKAGE).then(
      (module) => module as AgentSdk,
      (error: unknown) => {
        this.sdk = null;
        throw new LlmCallError(
          "bad-request",
          `the claude-agent-sdk generator could not load ${PACKAGE} (${(error as Error).message.split("\n")[0]}): install it again with \`${installCommand("claude-agent-sdk")}\``,
        );
      },
    );
    return this.sdk;
  }
}
