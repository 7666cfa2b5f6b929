import { cpSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Embedder } from "../../src/core/embedder.js";
import { resolveEmbeddingSettings } from "../../src/embed/embedding-settings.js";
import { createEmbedder, resolveEmbedder } from "../../src/embed/resolve-embedder.js";
import { UseLiteEmbedder } from "../../src/embed/use-lite-embedder.js";
import { LlmServer } from "../helpers/llm-server.js";
import { tempDir } from "../helpers/temp-dir.js";

let server: LlmServer;
beforeAll(async () => {
  server = await LlmServer.start();
});
afterAll(async () => {
  await server.close();
});

async function openAiEmbedder(): Promise<Embedder> {
  const settings = resolveEmbeddingSettings([
    {
      path: "ctx.toml",
      config: {
        embeddings: {
          provider: "openai-compatible",
          model: "test-embed",
          base_url: `${server.url}/v1`,
        },
      },
    },
  ]);
  const env = { OPENAI_API_KEY: "test-key" };
  const embedder = await createEmbedder(resolveEmbedder(undefined, settings, env), settings, env);
  if (!embedder) throw new Error("no embedder");
  return embedder;
}

/** A random-weight BERT-shaped model folder (committed; test/fixtures/onnx/make-tiny-bert.py made it). */
function tinyBert(): string {
  const folder = join(tempDir("ctx-onnx-"), "tiny-bert");
  cpSync(fileURLToPath(new URL("../fixtures/onnx/tiny-bert", import.meta.url)), folder, {
    recursive: true,
  });
  return folder;
}

async function onnxEmbedder(): Promise<Embedder> {
  const folder = tinyBert();
  const settings = resolveEmbeddingSettings([
    {
      path: join(folder, "..", "ctx.toml"),
      config: { embeddings: { provider: "onnx", model_path: "./tiny-bert" } },
    },
  ]);
  const embedder = await createEmbedder(resolveEmbedder(undefined, settings, {}), settings, {});
  if (!embedder) throw new Error("no embedder");
  return embedder;
}

const ADAPTERS: [string, () => Promise<Embedder>][] = [
  ["onnx (a random-weight BERT-shaped model, offline)", onnxEmbedder],
  ["openai-compatible (local wire-format server)", openAiEmbedder],
  ["use-lite (the model shipped in npm)", async () => new UseLiteEmbedder()],
];

describe.each(ADAPTERS)("embedder contract: %s", (_name, make) => {
  it("gives one unit-length vector of its dimension per text, in order, the same for the same text", async () => {
    const embedder = await make();
    const texts = [
      "retry the request with backoff",
      "parse the configuration file",
      "retry the request with backoff",
    ];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector.length).toBe(embedder.dimensions);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 4);
    }
    expect([...(vectors[2] as Float32Array)]).toEqual([...(vectors[0] as Float32Array)]);
    expect([...(vectors[1] as Float32Array)]).not.toEqual([...(vectors[0] as Float32Array)]);
    expect(await embedder.embed([])).toEqual([]);
    expect(embedder.id).toContain(String(embedder.dimensions));
    expect(embedder.quality).toBeGreaterThanOrEqual(0);
  }, 60_000);
});

describe("openai-compatible embedder", () => {
  it("learns its dimension from the model, and asks for floats", async () => {
    const embedder = await openAiEmbedder();
    expect(embedder.dimensions).toBe(64);
    expect(embedder.id).toBe("openai-compatible:test-embed:64");
    const request = server.requests.find((recorded) => recorded.path === "/v1/embeddings");
    expect(request?.json?.encoding_format).toBe("float");
  });

  it("retries rate limits and says when the answer has the wrong number of vectors", async () => {
    const embedder = await openAiEmbedder();
    server.retryAfterSeconds = 0;
    server.plan("rate-limit");
    expect(await embedder.embed(["one", "two"])).toHaveLength(2);
    server.plan("wrong-length");
    await expect(embedder.embed(["one", "two"])).rejects.toThrow(/1 vectors for 2 texts/);
  });

  it("masks secrets before texts leave the machine", async () => {
    const embedder = await openAiEmbedder();
    // Put together here, so this file holds no credential-shaped text of its own.
    const token = ["ghp_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("");
    await embedder.embed([`const token = "${token}";`]);
    expect(server.everythingSent()).not.toContain(token);
  });
});

describe("the embedder choice", () => {
  it("is off unless chosen, and says how to turn it on", () => {
    const none = resolveEmbedder(undefined, resolveEmbeddingSettings([]), {});
    expect(none.name).toBe("none");
    expect(none.reason).toMatch(/no embedder configured/);
    expect(
      resolveEmbedder(undefined, resolveEmbeddingSettings([]), { CTX_EMBEDDER: "use-lite" }),
    ).toEqual({
      name: "use-lite",
      reason: "CTX_EMBEDDER is set",
    });
    expect(() => resolveEmbedder("word2vec", resolveEmbeddingSettings([]), {})).toThrow(
      /unknown embedder "word2vec"/,
    );
  });
});

describe("onnx embedder", () => {
  it("names the model and its dimension, and refuses a model that is not a local folder without downloads", async () => {
    const embedder = await onnxEmbedder();
    expect(embedder.id).toBe("onnx:tiny-bert:32");
    const settings = resolveEmbeddingSettings([
      {
        path: "/nowhere/ctx.toml",
        config: {
          embeddings: { provider: "onnx", model_path: "sentence-transformers/all-MiniLM-L6-v2" },
        },
      },
    ]);
    await expect(
      createEmbedder(resolveEmbedder(undefined, settings, {}), settings, {}),
    ).rejects.toThrow(
      /is not a local folder; give model_path a folder with config.json, tokenizer.json and onnx\/model.onnx, or set allow_download = true/,
    );
  });
});
