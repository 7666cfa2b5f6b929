import { UsageError } from "../core/errors.js";
import { installCommand, missingPackagesOf } from "../optional-packages.js";
import type { ContextualizeSettings } from "./contextualize-settings.js";
import { GENERATOR_NAMES, type GeneratorName } from "./generator-names.js";

/** The generator a run uses, with everything needed to build it and the reason it was chosen. */
export interface GeneratorChoice {
  readonly name: GeneratorName;
  /** Model id, "" for structural and none. */
  readonly model: string;
  readonly baseUrl: string | null;
  readonly apiKey: string | null;
  /** Why this one, in words a user can act on. */
  readonly reason: string;
  /** True when structural was chosen only because no model is configured. */
  readonly fallback: boolean;
}

export const DEFAULT_MODELS: Readonly<Record<GeneratorName, string>> = {
  anthropic: "claude-haiku-4-5",
  "claude-agent-sdk": "claude-haiku-4-5",
  "openai-compatible": "gpt-4o-mini",
  structural: "",
  none: "",
};

const NOTHING_CONFIGURED =
  "no model is configured (set ANTHROPIC_API_KEY, CLAUDE_CODE_OAUTH_TOKEN or OPENAI_BASE_URL/OPENAI_API_KEY, " +
  "or [contextualize] generator in ctx.toml, for model-written contexts)";

/**
 * The one priority chain every entry point uses: an explicit choice (flag or
 * library option), then `[contextualize] generator`, then a provider detected
 * from the environment, then `structural`.
 */
export function resolveGenerator(
  explicit: string | undefined,
  settings: ContextualizeSettings,
  env: NodeJS.ProcessEnv,
): GeneratorChoice {
  if (explicit !== undefined) {
    if (!(GENERATOR_NAMES as readonly string[]).includes(explicit)) {
      throw new UsageError(
        `unknown context generator "${explicit}"; use one of: ${GENERATOR_NAMES.join(", ")}`,
      );
    }
    return choose(explicit as GeneratorName, "chosen with --contextualize", settings, env);
  }
  if (settings.generator)
    return choose(settings.generator, `set in ${settings.source}`, settings, env);
  if (env.ANTHROPIC_API_KEY) return choose("anthropic", "ANTHROPIC_API_KEY is set", settings, env);
  // A token found in the environment is no request to install Claude Code: without its package the chain goes on.
  const agentMissing =
    Boolean(env.CLAUDE_CODE_OAUTH_TOKEN) && missingPackagesOf("claude-agent-sdk").length > 0;
  if (env.CLAUDE_CODE_OAUTH_TOKEN && !agentMissing)
    return choose("claude-agent-sdk", "CLAUDE_CODE_OAUTH_TOKEN is set", settings, env);
  if (env.OPENAI_BASE_URL || env.OPENAI_API_KEY) {
    const which = env.OPENAI_BASE_URL ? "OPENAI_BASE_URL" : "OPENAI_API_KEY";
    return choose("openai-compatible", `${which} is set`, settings, env);
  }
  const reason = agentMissing
    ? `CLAUDE_CODE_OAUTH_TOKEN is set, but the claude-agent-sdk generator's package is not installed (\`${installCommand("claude-agent-sdk")}\` adds it)`
    : NOTHING_CONFIGURED;
  return { ...choose("structural", reason, settings, env), fallback: true };
}

function choose(
  name: GeneratorName,
  reason: string,
  settings: ContextualizeSettings,
  env: NodeJS.ProcessEnv,
): GeneratorChoice {
  const model =
    name === "structural" || name === "none" ? "" : (settings.model ?? DEFAULT_MODELS[name]);
  const keyVariable =
    settings.apiKeyEnv ?? (name === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY");
  const apiKey = env[keyVariable] || null;
  if (name === "anthropic" && !apiKey) {
    throw new UsageError(
      `the anthropic context generator (${reason}) needs an API key: set ${keyVariable}`,
    );
  }
  if (name === "claude-agent-sdk" && !env.CLAUDE_CODE_OAUTH_TOKEN && !env.ANTHROPIC_API_KEY) {
    throw new UsageError(
      `the claude-agent-sdk context generator (${reason}) needs CLAUDE_CODE_OAUTH_TOKEN (or ANTHROPIC_API_KEY) in the environment`,
    );
  }
  const baseUrl =
    name === "anthropic"
      ? (settings.baseUrl ?? env.ANTHROPIC_BASE_URL ?? null)
      : name === "openai-compatible"
        ? (settings.baseUrl ?? env.OPENAI_BASE_URL ?? "https://api.openai.com/v1")
        : null;
  return { name, model, baseUrl, apiKey, reason, fallback: false };
}
