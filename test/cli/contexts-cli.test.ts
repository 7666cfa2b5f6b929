import { cpSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LlmServer } from "../helpers/llm-server.js";
import { runCli, runCliAsync } from "../helpers/run-cli.js";
import { gitRepo, tempDir, writeFiles } from "../helpers/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));
const BEIR_MINI = fileURLToPath(new URL("../fixtures/beir-mini", import.meta.url));

let server: LlmServer;
beforeAll(async () => {
  server = await LlmServer.start();
});
afterAll(async () => {
  await server.close();
});

function repo(): string {
  const root = gitRepo({ "README.md": "# Demo\n" });
  cpSync(FIXTURES, join(root, "src"), { recursive: true });
  return root;
}

describe("contexts from the CLI", () => {
  it("says when contexts are structural because no model is configured", () => {
    const root = repo();
    const result = runCli(["index"], root);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /Contexts: structural — no model is configured \(set ANTHROPIC_API_KEY/,
    );
    const status = runCli(["status"], root);
    expect(status.stdout).toMatch(/Contexts: structural — no model is configured/);
    expect(status.stdout).toMatch(/chunks by context: structural \d+/);
    // The context is indexed, and shown only on request.
    const plain = runCli(["query", "RetryRunner run", "--budget", "1500"], root);
    expect(plain.stdout).not.toContain("> context:");
    const explained = runCli(["query", "RetryRunner run", "--budget", "1500", "--explain"], root);
    // Every fixture language has a RetryRunner.run; which comes first is the ranking's business.
    expect(explained.stdout).toMatch(
      /> context: src\/sample\.\w+ \(\w+\)\. In RetryRunner: method run\./,
    );
  });

  it("estimates a model run with --dry-run and sends nothing", () => {
    const root = repo();
    const before = server.requests.length;
    const result = runCli(["index", "--contextualize", "--dry-run"], root, {
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: server.url,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /Contexts \(dry run, nothing sent\): anthropic \(claude-haiku-4-5\) — ANTHROPIC_API_KEY is set/,
    );
    expect(result.stdout).toMatch(/would send \d+ chunks of 12 documents in \d+ calls/);
    expect(result.stdout).toMatch(/estimated cost: \$\d+\.\d\d at \$1\/M input, \$5\/M output/);
    expect(server.requests.length).toBe(before);
  });

  it("contextualizes with a generator named on the command line and reports calls and tokens", async () => {
    const root = repo();
    writeFiles(root, { "ctx.toml": "[contextualize]\nretry_base_seconds = 0.01\n" });
    const result = await runCliAsync(["index", "--contextualize", "openai-compatible"], root, {
      OPENAI_API_KEY: "test-key",
      OPENAI_BASE_URL: `${server.url}/v1`,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /Contexts: openai-compatible \(gpt-4o-mini\) — chosen with --contextualize/,
    );
    expect(result.stdout).toMatch(
      /\d+ chunks needed a context: 0 from cache, \d+ generated, 0 failed/,
    );
    expect(result.stdout).toMatch(/calls: \d+ \(\d+ batch, \d+ single; 0 retries/);
  });

  it("evaluates with contexts from a generator", () => {
    const result = runCli(["eval", BEIR_MINI, "--contextualize", "structural"], tempDir());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Contexts: structural, \d+ written/);
  });

  it("evaluates what an index holds without a model unless told otherwise, a key in the environment included", () => {
    const env = { ANTHROPIC_API_KEY: "never-used", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };
    const byDefault = runCli(["eval", BEIR_MINI], tempDir(), env);
    expect(byDefault.code, byDefault.stderr).toBe(0);
    expect(byDefault.stdout).toMatch(/Contexts: structural, \d+ written/);
    const none = runCli(["eval", BEIR_MINI, "--contextualize", "none"], tempDir(), env);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toMatch(/Contexts: none$/m);
  });
});

describe("embeddings from the CLI", () => {
  it("embeds with the embedder named on the command line, reports coverage, and says when it is off", async () => {
    const root = repo();
    const off = runCli(["index"], root);
    expect(off.stdout).toMatch(/Embeddings: none — no embedder configured/);
    const result = await runCliAsync(["index", "--embedder", "openai-compatible"], root, {
      OPENAI_API_KEY: "test-key",
      OPENAI_BASE_URL: `${server.url}/v1`,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /Embeddings: openai-compatible:text-embedding-3-small:64 — chosen with --embedder; \d+ texts embedded in [\d.]+ s, (\d+) of \1 chunks have vectors/,
    );
    const status = await runCliAsync(["status"], root, {
      CTX_EMBEDDER: "openai-compatible",
      OPENAI_API_KEY: "k",
      OPENAI_BASE_URL: `${server.url}/v1`,
    });
    expect(status.stdout).toMatch(
      /Embeddings: openai-compatible:text-embedding-3-small:64 — CTX_EMBEDDER is set; (\d+) of \1 chunks have vectors/,
    );
  });
});
