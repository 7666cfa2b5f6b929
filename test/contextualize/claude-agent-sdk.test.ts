import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContextualizeSettings } from "../../src/contextualize/contextualize-settings.js";
import { createGenerator } from "../../src/contextualize/create-generator.js";
import { resolveGenerator } from "../../src/contextualize/resolve-generator.js";
import { UsageMeter } from "../../src/contextualize/usage-meter.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { LlmServer } from "../helpers/llm-server.js";
import { tempDir } from "../helpers/temp-dir.js";

const SETTINGS: ContextualizeSettings = {
  generator: null,
  model: null,
  baseUrl: null,
  apiKeyEnv: null,
  batchSize: 10,
  concurrency: 2,
  maxRetries: 1,
  retryBaseMs: 20,
  retryMaxMs: 200,
  requestTimeoutMs: 60_000,
  maxDocumentTokens: 8000,
  maxContextTokens: 100,
  source: null,
};

let server: LlmServer;
let home: string;
beforeAll(async () => {
  server = await LlmServer.start();
  home = tempDir("ctx-agent-home-");
});
afterAll(async () => {
  await server.close();
});

describe("claude-agent-sdk generator", () => {
  it("writes contexts through the real Claude Agent SDK (query(), one turn, no tools)", async () => {
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: home,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: "dummy",
    };
    const usage = new UsageMeter();
    const choice = resolveGenerator("claude-agent-sdk", SETTINGS, env);
    const generator = await createGenerator(choice, SETTINGS, o200kCounter, usage, env);
    const chunks = ["retryWithBackoff", "parseConfig"].map((name) => ({
      content: `export function ${name}() {}`,
      path: "src/a.ts",
      language: "typescript",
      kind: "function" as const,
      symbol: name,
      enclosing: [],
      defines: [],
      startLine: 1,
      endLine: 1,
    }));
    const contexts = await generator.contextualizeBatch(
      chunks,
      "export function retryWithBackoff() {}\nexport function parseConfig() {}",
    );
    expect(contexts).toEqual([
      "Context of chunk 1 about export.",
      "Context of chunk 2 about export.",
    ]);
    const sent = server.modelRequests.map((request) => request.body).join("\n");
    expect(sent).toContain("<document>");
    expect(sent).toContain("retryWithBackoff");
    expect(usage.snapshot().calls).toBe(1);
  }, 60_000);
});
