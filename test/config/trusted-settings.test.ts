import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { addTrust, sha256Of, trustListPath } from "../../src/config/trust-store.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const RESTRICTED = `[contextualize]
generator = "anthropic"
base_url = "http://127.0.0.1:9/v1"
api_key_env = "AWS_SECRET_ACCESS_KEY"
batch_size = 7

[embeddings]
provider = "onnx"
model_path = "/somewhere/model"
batch_size = 9

[rerank]
provider = "cohere"
top_n = 12

[store]
url = "postgres://attacker.example/db"
path = "/var/tmp/elsewhere.db"

[index]
include_secrets = true
graph = false
`;

describe("which settings a project file may choose", () => {
  it("leaves out, untrusted, what picks code, keys or destinations, and keeps the rest", async () => {
    const root = tempDir();
    const home = tempDir();
    writeFiles(root, { "ctx.toml": RESTRICTED });
    const config = await loadConfig(root, { XDG_CONFIG_HOME: home });
    expect(config.contextualize).toMatchObject({
      generator: null,
      baseUrl: null,
      apiKeyEnv: null,
      batchSize: 7,
    });
    expect(config.embeddings).toMatchObject({ provider: null, modelPath: null, batchSize: 9 });
    expect(config.rerank.provider).toBeNull();
    expect(config.storeServer.url).toBeNull();
    expect(config.storePath).toBe(".ctx/index.db");
    expect(config.untrusted?.ignored).toEqual([
      "contextualize.generator",
      "contextualize.base_url",
      "contextualize.api_key_env",
      "embeddings.provider",
      "embeddings.model_path",
      "rerank.provider",
      "store.url",
      "store.path",
      "index.include_secrets",
    ]);
    expect(config.hydration.includeSecrets).toBe(false);
    expect(config.graph).toBe(false);
  });

  it("keeps a local generator or embedder and a store path inside the project", async () => {
    const root = tempDir();
    writeFiles(root, {
      "ctx.toml":
        '[contextualize]\ngenerator = "structural"\n[embeddings]\nprovider = "use-lite"\n[store]\npath = "cache/ctx.db"\n[index]\ninclude_secrets = false\n',
    });
    const config = await loadConfig(root, { XDG_CONFIG_HOME: tempDir() });
    expect(config.contextualize.generator).toBe("structural");
    expect(config.embeddings.provider).toBe("use-lite");
    expect(config.storePath).toBe("cache/ctx.db");
    expect(config.untrusted).toBeNull();
    writeFiles(root, { "ctx.toml": '[store]\npath = "../up/ctx.db"\n' });
    expect((await loadConfig(root, { XDG_CONFIG_HOME: tempDir() })).untrusted?.ignored).toEqual([
      "store.path",
    ]);
  });

  it("takes every setting from the user's own file, trusted or not", async () => {
    const home = tempDir();
    writeFiles(home, { "ctx/config.toml": RESTRICTED });
    const config = await loadConfig(tempDir(), { XDG_CONFIG_HOME: home });
    expect(config.contextualize).toMatchObject({
      generator: "anthropic",
      apiKeyEnv: "AWS_SECRET_ACCESS_KEY",
    });
    expect(config.storeServer.url).toBe("postgres://attacker.example/db");
    expect(config.untrusted).toBeNull();
  });

  it("honours a trusted file only while its bytes are the ones trusted", async () => {
    const root = tempDir();
    const env = { XDG_CONFIG_HOME: tempDir() };
    writeFiles(root, { "ctx.toml": RESTRICTED });
    addTrust(join(root, "ctx.toml"), sha256Of(RESTRICTED), env);
    expect((await loadConfig(root, env)).contextualize.generator).toBe("anthropic");
    writeFiles(root, { "ctx.toml": `${RESTRICTED}\n` });
    const edited = await loadConfig(root, env);
    expect(edited.contextualize.generator).toBeNull();
    expect(edited.untrusted?.ignored).toContain("contextualize.generator");
  });

  it("trusts nothing when the trust list is malformed, and says why", async () => {
    const root = tempDir();
    const env = { XDG_CONFIG_HOME: tempDir() };
    writeFiles(root, { "ctx.toml": RESTRICTED });
    writeFiles(env.XDG_CONFIG_HOME, { "ctx/trusted.json": "{ not json" });
    const config = await loadConfig(root, env);
    expect(config.contextualize.generator).toBeNull();
    expect(config.untrusted?.listProblem).toBe(
      `${trustListPath(env)} is not a trust list ctx wrote`,
    );
  });

  it("drops a custom strategy and its place in the enabled list", async () => {
    const root = tempDir();
    writeFiles(root, {
      "ctx.toml":
        '[context.strategies]\nenabled = ["simple-keyword", "mine"]\n[context.strategies.custom]\nmine = "./mine.js:Mine"\n',
    });
    const config = await loadConfig(root, { XDG_CONFIG_HOME: tempDir() });
    expect(config.strategies.custom).toEqual([]);
    expect(config.strategies.enabled).toEqual(["simple-keyword"]);
    expect(config.untrusted?.ignored).toEqual(["context.strategies.custom.mine"]);
  });
});
