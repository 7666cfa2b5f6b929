import { describe, expect, it } from "vitest";
import { resolveContextualizeSettings } from "../../src/contextualize/contextualize-settings.js";
import { resolveGenerator } from "../../src/contextualize/resolve-generator.js";

const configured = (
  generator?: "anthropic" | "openai-compatible" | "structural" | "none",
  extra = {},
) =>
  resolveContextualizeSettings(
    generator ? [{ path: "/p/ctx.toml", config: { contextualize: { generator, ...extra } } }] : [],
  );

describe("the generator priority chain", () => {
  it("takes an explicit choice first", () => {
    const choice = resolveGenerator("none", configured("anthropic"), { ANTHROPIC_API_KEY: "k" });
    expect(choice).toMatchObject({
      name: "none",
      reason: "chosen with --contextualize",
      fallback: false,
    });
  });

  it("then the [contextualize] config, naming the file", () => {
    const choice = resolveGenerator(
      undefined,
      configured("openai-compatible", { base_url: "http://localhost:11434/v1", model: "qwen2.5" }),
      {
        ANTHROPIC_API_KEY: "k",
      },
    );
    expect(choice).toMatchObject({
      name: "openai-compatible",
      model: "qwen2.5",
      baseUrl: "http://localhost:11434/v1",
      reason: "set in /p/ctx.toml",
    });
  });

  it("then the environment: ANTHROPIC_API_KEY, CLAUDE_CODE_OAUTH_TOKEN, OPENAI_BASE_URL / OPENAI_API_KEY", () => {
    const none = configured();
    expect(
      resolveGenerator(undefined, none, { ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "o" }),
    ).toMatchObject({
      name: "anthropic",
      model: "claude-haiku-4-5",
      apiKey: "k",
      reason: "ANTHROPIC_API_KEY is set",
    });
    expect(
      resolveGenerator(undefined, none, { CLAUDE_CODE_OAUTH_TOKEN: "t", OPENAI_API_KEY: "o" }),
    ).toMatchObject({
      name: "claude-agent-sdk",
      reason: "CLAUDE_CODE_OAUTH_TOKEN is set",
    });
    expect(
      resolveGenerator(undefined, none, { OPENAI_BASE_URL: "http://localhost:8000/v1" }),
    ).toMatchObject({
      name: "openai-compatible",
      baseUrl: "http://localhost:8000/v1",
      apiKey: null,
      reason: "OPENAI_BASE_URL is set",
    });
    expect(resolveGenerator(undefined, none, { OPENAI_API_KEY: "o" })).toMatchObject({
      name: "openai-compatible",
      baseUrl: "https://api.openai.com/v1",
      reason: "OPENAI_API_KEY is set",
    });
  });

  it("falls back to structural, loudly, when nothing is configured", () => {
    const choice = resolveGenerator(undefined, configured(), {});
    expect(choice).toMatchObject({ name: "structural", model: "", fallback: true });
    expect(choice.reason).toMatch(/no model is configured \(set ANTHROPIC_API_KEY/);
  });

  it("explains what is missing for a chosen provider, and refuses unknown names", () => {
    expect(() => resolveGenerator(undefined, configured("anthropic"), {})).toThrow(
      /anthropic context generator \(set in \/p\/ctx\.toml\) needs an API key: set ANTHROPIC_API_KEY/,
    );
    expect(() => resolveGenerator("claude-agent-sdk", configured(), {})).toThrow(
      /needs CLAUDE_CODE_OAUTH_TOKEN/,
    );
    expect(() => resolveGenerator("gpt", configured(), {})).toThrow(
      /unknown context generator "gpt"; use one of: anthropic/,
    );
  });
});
