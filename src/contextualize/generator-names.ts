/** Every context generator a user can name. */
export const GENERATOR_NAMES = [
  "anthropic",
  "claude-agent-sdk",
  "openai-compatible",
  "structural",
  "none",
] as const;
export type GeneratorName = (typeof GENERATOR_NAMES)[number];

/** Generators that call a model (and so send text off the machine). */
export const MODEL_GENERATORS: ReadonlySet<GeneratorName> = new Set([
  "anthropic",
  "claude-agent-sdk",
  "openai-compatible",
]);
