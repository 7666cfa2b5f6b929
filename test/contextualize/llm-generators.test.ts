import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ContextualizeSettings } from "../../src/contextualize/contextualize-settings.js";
import { createGenerator } from "../../src/contextualize/create-generator.js";
import { resolveGenerator } from "../../src/contextualize/resolve-generator.js";
import { UsageMeter } from "../../src/contextualize/usage-meter.js";
import { type ChunkForContext, ContextBatchError } from "../../src/core/context-generator.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { FakeSecrets, leakedSlices } from "../helpers/fake-secrets.js";
import { LlmServer } from "../helpers/llm-server.js";

const SETTINGS: ContextualizeSettings = {
  generator: null,
  model: null,
  baseUrl: null,
  apiKeyEnv: null,
  batchSize: 3,
  concurrency: 5,
  maxRetries: 3,
  retryBaseMs: 20,
  retryMaxMs: 200,
  requestTimeoutMs: 400,
  maxDocumentTokens: 8000,
  maxContextTokens: 100,
  source: null,
};

function chunk(name: string): ChunkForContext {
  return {
    content: `function ${name}() {\n  return "${name}";\n}`,
    path: "src/example.ts",
    language: "typescript",
    kind: "function",
    symbol: name,
    enclosing: [],
    defines: [],
    startLine: 1,
    endLine: 3,
  };
}

const CHUNKS = ["alpha", "bravo", "charlie", "delta", "echo"].map(chunk);
const DOCUMENT = CHUNKS.map((c) => c.content).join("\n\n");

let server: LlmServer;
beforeEach(async () => {
  server = await LlmServer.start();
});
afterEach(async () => {
  await server.close();
});

type Provider = "anthropic" | "openai-compatible";

async function generatorFor(provider: Provider, overrides: Partial<ContextualizeSettings> = {}) {
  const env =
    provider === "anthropic"
      ? { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url }
      : { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: `${server.url}/v1` };
  const settings = { ...SETTINGS, ...overrides };
  const usage = new UsageMeter();
  const choice = resolveGenerator(provider, settings, env);
  return { generator: await createGenerator(choice, settings, o200kCounter, usage, env), usage };
}

describe.each<Provider>(["anthropic", "openai-compatible"])(
  "%s generator against a wire-format server",
  (provider) => {
    it("batches chunks with the document and returns one context per chunk, in order", async () => {
      const { generator, usage } = await generatorFor(provider);
      const contexts = await generator.contextualizeBatch(CHUNKS, DOCUMENT);
      expect(contexts).toEqual([
        "Context of chunk 1 about function.",
        "Context of chunk 2 about function.",
        "Context of chunk 3 about function.",
        "Context of chunk 1 about function.",
        "Context of chunk 2 about function.",
      ]);
      expect(server.modelRequests).toHaveLength(2); // 5 chunks in batches of 3
      expect(usage.snapshot()).toMatchObject({
        calls: 2,
        batchCalls: 2,
        singleCalls: 0,
        inputTokens: 200,
        outputTokens: 40,
      });
      // The two batches go out together: either may reach the server first.
      const bodies = server.modelRequests.map((request) => JSON.stringify(request.json));
      expect(bodies.every((body) => body.includes("<document>"))).toBe(true);
      expect(bodies.filter((body) => body.includes('<chunk index=\\"3\\">'))).toHaveLength(1);
    });

    it("masks a private key split across chunks in each of them, and in the document", async () => {
      const { generator } = await generatorFor(provider, { batchSize: 1 });
      const key = new FakeSecrets(3).privateKey("PRIVATE KEY", 12);
      const lines = ["export const TLS_KEY = `", ...key.split("\n"), "`;"];
      // BEGIN and a few lines; lines of base64 alone, which look like no key; the rest and END.
      const cuts = [0, 5, 10, lines.length];
      const parts = cuts.slice(0, -1).map((start, index) => ({
        ...chunk(`part${index}`),
        content: lines.slice(start, cuts[index + 1]).join("\n"),
        startLine: start + 1,
        endLine: cuts[index + 1] as number,
      }));
      await generator.contextualizeBatch(parts, lines.join("\n"));
      expect(server.modelRequests).toHaveLength(3);
      for (const request of server.modelRequests) {
        const prompt = JSON.stringify(request.json).replace(/\\n/g, "\n");
        expect(leakedSlices(key, prompt, 8)).toEqual([]);
        expect(prompt).toContain("export const TLS_KEY");
        expect(prompt).toContain("[REDACTED]");
      }
    });

    it("accepts fenced JSON, and falls back to one call per chunk on a wrong count, prose or broken JSON", async () => {
      const { generator, usage } = await generatorFor(provider);
      server.plan("fenced", "wrong-length");
      const contexts = await generator.contextualizeBatch(CHUNKS, DOCUMENT);
      expect(contexts).toHaveLength(5);
      expect(usage.snapshot()).toMatchObject({ batchCalls: 2, singleCalls: 2, batchFallbacks: 1 });
      server.plan("prose", "malformed-json");
      await generator.contextualizeBatch(CHUNKS, DOCUMENT);
      expect(usage.snapshot().batchFallbacks).toBe(3);
      expect(contexts.every((context) => context.startsWith("Context of"))).toBe(true);
    });

    it("honours retry-after on a 429 and retries 500s", async () => {
      const { generator, usage } = await generatorFor(provider);
      server.retryAfterSeconds = 1;
      server.plan("rate-limit", "server-error");
      const started = Date.now();
      const contexts = await generator.contextualizeBatch(CHUNKS.slice(0, 3), DOCUMENT);
      expect(contexts).toHaveLength(3);
      const [first, second, third] = server.modelRequests;
      expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
      expect((third?.at ?? 0) - (second?.at ?? 0)).toBeLessThan(900);
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(usage.snapshot()).toMatchObject({
        retries: 2,
        failuresByKind: { "rate-limit": 1, server: 1 },
      });
    });

    it("gives up on a chunk after the retries and says why, keeping the contexts that worked", async () => {
      const lone = (await generatorFor(provider, { maxRetries: 1 })).generator;
      server.plan("server-error", "server-error");
      const error = await lone
        .contextualizeBatch(CHUNKS.slice(0, 1), DOCUMENT)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContextBatchError);
      expect((error as ContextBatchError).contexts).toEqual([null]);
      expect((error as ContextBatchError).reasons[0]).toMatch(/^server: .*HTTP 500/);

      // A bad batch answer, then one single call that fails for good and one that works.
      const { generator } = await generatorFor(provider, { maxRetries: 0, concurrency: 1 });
      server.plan("wrong-length", "server-error");
      const partial = await generator
        .contextualizeBatch(CHUNKS.slice(0, 2), DOCUMENT)
        .catch((caught: unknown) => caught);
      expect(partial).toBeInstanceOf(ContextBatchError);
      expect((partial as ContextBatchError).contexts[0]).toBeNull();
      expect((partial as ContextBatchError).contexts[1]).toMatch(/^Context of a chunk about/);
    });

    it("times out a hanging call and retries it", async () => {
      const { generator, usage } = await generatorFor(provider);
      server.plan("hang");
      const contexts = await generator.contextualizeBatch(CHUNKS.slice(0, 2), DOCUMENT);
      expect(contexts).toHaveLength(2);
      expect(usage.snapshot().failuresByKind.timeout).toBe(1);
    });

    it("never has more calls in flight than the concurrency limit, and halves it after a 429", async () => {
      const { generator } = await generatorFor(provider, { batchSize: 1, concurrency: 3 });
      server.delayMs = 40;
      const many = Array.from({ length: 12 }, (_, i) => chunk(`fn${i}`));
      await generator.contextualizeBatch(many, DOCUMENT);
      expect(server.maxConcurrent).toBe(3);

      server.maxConcurrent = 0;
      server.retryAfterSeconds = 0;
      server.plan("rate-limit");
      await generator.contextualizeBatch(many, DOCUMENT);
      expect(server.maxConcurrent).toBeLessThanOrEqual(3);
    });
  },
);

describe("anthropic requests", () => {
  it("put the document in a system block marked for prompt caching", async () => {
    const { generator } = await generatorFor("anthropic");
    await generator.contextualizeBatch(CHUNKS.slice(0, 2), DOCUMENT);
    const request = server.modelRequests[0];
    const system = (request?.json?.system ?? []) as { text: string; cache_control?: unknown }[];
    const cached = system.find((block) => block.cache_control !== undefined);
    expect(cached?.cache_control).toEqual({ type: "ephemeral" });
    expect(cached?.text.startsWith("<document>")).toBe(true);
    expect(request?.headers["x-api-key"] ?? request?.headers.authorization).toBeTruthy();
  });
});
