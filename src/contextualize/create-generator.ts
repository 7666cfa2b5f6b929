import type { ContextGenerator } from "../core/context-generator.js";
import type { TokenCounter } from "../core/token-counter.js";
import { requireFeature } from "../optional-packages.js";
import type { ContextualizeSettings } from "./contextualize-settings.js";
import type { LlmClient } from "./llm/llm-client.js";
import { NoContextGenerator } from "./none-generator.js";
import type { GeneratorChoice } from "./resolve-generator.js";
import { StructuralContextGenerator } from "./structural-generator.js";
import type { UsageMeter } from "./usage-meter.js";

/**
 * Builds the chosen generator; model generators share one usage meter per run.
 * Provider SDKs are imported only when their generator is chosen, so commands
 * that need none start fast.
 */
export async function createGenerator(
  choice: GeneratorChoice,
  settings: ContextualizeSettings,
  counter: TokenCounter,
  usage: UsageMeter,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ContextGenerator> {
  assertGeneratorInstalled(choice);
  const client = await clientFor(choice, settings, env);
  if (!client) {
    return choice.name === "none"
      ? new NoContextGenerator()
      : new StructuralContextGenerator(counter);
  }
  const { LlmContextGenerator } = await import("./llm/llm-context-generator.js");
  return new LlmContextGenerator(
    client,
    {
      batchSize: settings.batchSize,
      concurrency: settings.concurrency,
      retry: {
        maxRetries: settings.maxRetries,
        baseMs: settings.retryBaseMs,
        maxMs: settings.retryMaxMs,
      },
      maxDocumentTokens: settings.maxDocumentTokens,
      maxContextTokens: settings.maxContextTokens,
    },
    counter,
    usage,
  );
}

/** Fails, naming the install command, when the chosen generator's optional package is absent. */
export function assertGeneratorInstalled(choice: GeneratorChoice): void {
  if (choice.name === "claude-agent-sdk")
    requireFeature("claude-agent-sdk", `the claude-agent-sdk context generator (${choice.reason})`);
}

async function clientFor(
  choice: GeneratorChoice,
  settings: ContextualizeSettings,
  env: NodeJS.ProcessEnv,
): Promise<LlmClient | null> {
  switch (choice.name) {
    case "anthropic": {
      const { AnthropicClient } = await import("./llm/anthropic-client.js");
      return new AnthropicClient({
        apiKey: choice.apiKey ?? "",
        model: choice.model,
        baseUrl: choice.baseUrl,
        timeoutMs: settings.requestTimeoutMs,
      });
    }
    case "openai-compatible": {
      const { OpenAiCompatibleClient } = await import("./llm/openai-client.js");
      return new OpenAiCompatibleClient({
        // Local servers (Ollama, llama.cpp) take any key; the SDK insists on one.
        apiKey: choice.apiKey ?? "not-needed",
        model: choice.model,
        baseUrl: choice.baseUrl ?? "https://api.openai.com/v1",
        timeoutMs: settings.requestTimeoutMs,
      });
    }
    case "claude-agent-sdk": {
      const { ClaudeAgentClient } = await import("./llm/claude-agent-client.js");
      return new ClaudeAgentClient({
        model: choice.model,
        timeoutMs: settings.requestTimeoutMs,
        env: { ...env },
      });
    }
    default:
      return null;
  }
}
