import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { LlmServer } from "../helpers/llm-server.js";
import { tempDir, userConfigHome, writeFiles } from "../helpers/temp-dir.js";

/** The user's config folder: endpoints and models are the user's to choose, not the project's. */
let home: string;

let server: LlmServer;
beforeEach(async () => {
  server = await LlmServer.start();
  home = tempDir("ctx-home-");
});
afterEach(async () => {
  await server.close();
});

const FILES = {
  ".ctxignore": ".ctxignore\n",
  "billing/invoice.py":
    'def total_due(lines):\n    """Sum what the customer owes on an invoice."""\n    return sum(line.amount for line in lines)\n',
  "auth/session.py":
    'def renew(token):\n    """Extend a login session before it expires."""\n    return token.refresh()\n',
  "search/ranking.py":
    'def score(document, query):\n    """Order documents by how well they answer a query."""\n    return bm25(document, query)\n',
};

function embeddingsToml(model = "test-embed", extra = "") {
  return `[embeddings]\nprovider = "openai-compatible"\nmodel = "${model}"\nbase_url = "${server.url}/v1"\n${extra}\n[contextualize]\ngenerator = "none"\n`;
}

async function open(root: string) {
  return ContextEngine.open({
    start: root,
    cwd: root,
    env: { XDG_CONFIG_HOME: home, OPENAI_API_KEY: "test-key" },
  });
}

function embedCalls(): number {
  return server.requests.filter((request) => request.path === "/v1/embeddings").length;
}

describe("vectors in the index", () => {
  it("embeds every chunk once: re-indexing never re-embeds unchanged text", async () => {
    const root = tempDir();
    writeFiles(root, FILES);
    home = userConfigHome(embeddingsToml());
    const engine = await open(root);
    try {
      const first = await engine.index([root]);
      expect(first.embeddings.report).toMatchObject({
        embedder: "openai-compatible:test-embed:64",
        error: null,
      });
      expect(first.embeddings.report?.coverage.embedded).toBe(
        first.embeddings.report?.coverage.total,
      );
      const calls = embedCalls();
      const again = await engine.index([root]);
      expect(again.embeddings.report?.embedded).toBe(0);
      expect(embedCalls()).toBe(calls);

      writeFileSync(
        join(root, "auth/session.py"),
        'def renew(token):\n    """Extend a session."""\n    return token.extend()\n',
      );
      const changed = await engine.index([root]);
      expect(changed.embeddings.report?.embedded).toBe(1);
      expect(changed.embeddings.report?.pruned).toBe(1);
    } finally {
      await engine.close();
    }
  });

  it("lets one process at a time embed: a second run at once leaves the texts to the first", async () => {
    const root = tempDir();
    writeFiles(root, FILES);
    home = userConfigHome(embeddingsToml());
    const first = await open(root);
    const second = await open(root);
    try {
      await first.index([root], { embed: false });
      // Made now: making one asks the server for its vector size.
      await Promise.all([first.embedderFor(), second.embedderFor()]);
      const before = embedCalls();
      // The second run starts while the first one's embedding call is still out.
      server.delayMs = 1000;
      const running = first.index([root]);
      while (embedCalls() === before) await new Promise((resolve) => setTimeout(resolve, 10));
      const reports = [await second.index([root]), await running].map(
        (run) => run.embeddings.report,
      );
      expect(reports.map((report) => report?.deferred).sort()).toEqual([false, true]);
      expect(reports.find((report) => report?.deferred)?.embedded).toBe(0);
      const done = reports.find((report) => !report?.deferred);
      expect(done?.coverage.embedded).toBe(done?.coverage.total);
      expect(await first.store.state.getMeta("embed_lease")).toBeNull();
    } finally {
      await second.close();
      await first.close();
    }
  });

  it("keeps one vector set per embedder: switching builds a new one and leaves the other", async () => {
    const root = tempDir();
    writeFiles(root, FILES);
    home = userConfigHome(embeddingsToml("model-a"));
    const a = await open(root);
    await a.index([root]);
    await a.close();
    writeFileSync(join(home, "ctx/config.toml"), embeddingsToml("model-b"));
    const b = await open(root);
    try {
      const report = await b.index([root]);
      expect(report.embeddings.report?.embedder).toBe("openai-compatible:model-b:64");
      const total = report.embeddings.report?.coverage.total ?? 0;
      expect(report.embeddings.report?.embedded).toBe(total);
      expect(await b.store.vectors.embeddingCoverage("openai-compatible:model-a:64")).toEqual({
        embedded: total,
        total,
      });
    } finally {
      await b.close();
    }
  });

  it("answers with keyword search before any vector exists, and with vectors after", async () => {
    const root = tempDir();
    writeFiles(root, FILES);
    home = userConfigHome(embeddingsToml());
    const engine = await open(root);
    try {
      await engine.index([root], { embed: false });
      const before = await engine.query({
        task: "customer owes invoice",
        budget: 2000,
        strategies: ["semantic-embedding", "simple-keyword"],
      });
      expect(before.provenance.find((run) => run.name === "semantic-embedding")?.status).toBe(
        "no-backend",
      );
      expect(before.fragments[0]?.source).toMatchObject({ path: "billing/invoice.py" });

      await engine.index([root]);
      const after = await engine.query({
        task: "customer owes invoice",
        budget: 2000,
        strategies: ["semantic-embedding"],
      });
      expect(after.provenance[0]).toMatchObject({ name: "semantic-embedding", status: "ran" });
      expect(after.fragments[0]?.source).toMatchObject({ path: "billing/invoice.py" });
    } finally {
      await engine.close();
    }
  });
});

describe("arce", () => {
  it("is the default pipeline, whose top the configured reranker reorders (an outage costs only that)", async () => {
    const root = tempDir();
    const reranker = await LlmServer.start();
    const rerank = `[rerank]\nprovider = "openai-compatible"\nbase_url = "${reranker.url}/v1"\napi_key_env = "OPENAI_API_KEY"\nrequest_timeout_seconds = 0.3\n`;
    writeFiles(root, FILES);
    home = userConfigHome(embeddingsToml("test-embed", rerank));
    const engine = await open(root);
    try {
      await engine.index([root]);
      const task = "extend login session";
      const result = await engine.query({ task, budget: 2000, strategies: ["arce"] });
      expect(result.provenance.map((run) => `${run.name} ${run.status}`)).toEqual([
        "simple-keyword ran",
        "semantic-embedding ran",
        "breadth-depth-navigator ran",
      ]);
      expect(result.fragments[0]?.source).toMatchObject({ path: "auth/session.py" });
      expect(reranker.requests.some((request) => request.path === "/v1/rerank")).toBe(true);
      const reasons = result.fragments.flatMap((fragment) => fragment.ranking ?? []);
      expect(reasons).toContain("reranker (openai-compatible:): 1 of 3");
      // With no strategy list, the same three run and give the same answer.
      const byDefault = await engine.query({ task, budget: 2000 });
      expect(byDefault.provenance.map((run) => run.name)).toEqual(
        result.provenance.map((run) => run.name),
      );
      expect(byDefault.fragments.map((fragment) => fragment.id)).toEqual(
        result.fragments.map((fragment) => fragment.id),
      );

      reranker.outage = "server-error";
      const degraded = await engine.query({ task, budget: 2000, strategies: ["arce"] });
      expect(degraded.provenance.every((run) => run.errors.length === 0)).toBe(true);
      expect(degraded.fragments[0]?.source).toMatchObject({ path: "auth/session.py" });
      expect(degraded.fragments.flatMap((fragment) => fragment.ranking ?? [])).not.toContain(
        "reranker (openai-compatible:): 1 of 3",
      );
      // One that hangs holds the answer for its timeout and retries, then the order stands.
      reranker.outage = "hang";
      const started = Date.now();
      const waited = await engine.query({ task, budget: 2000 });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(waited.fragments[0]?.source).toMatchObject({ path: "auth/session.py" });
    } finally {
      await reranker.close();
      await engine.close();
    }
  });

  it("runs what can run without vectors, and an old [arce] section loads with one warning", async () => {
    const root = tempDir();
    writeFiles(root, { ...FILES, "ctx.toml": '[arce]\nfusion = "rrf"\n' });
    const warnings: string[] = [];
    const engine = await ContextEngine.open({
      start: root,
      cwd: root,
      env: { XDG_CONFIG_HOME: home },
      warn: (line) => warnings.push(line),
    });
    try {
      await engine.index([root]);
      const result = await engine.query({
        task: "invoice total",
        budget: 1000,
        strategies: ["arce"],
      });
      expect(result.provenance.map((run) => [run.name, run.status])).toEqual([
        ["simple-keyword", "ran"],
        ["semantic-embedding", "no-backend"],
        ["breadth-depth-navigator", "ran"],
      ]);
      expect(result.fragments[0]?.source).toMatchObject({ path: "billing/invoice.py" });
      expect(warnings.filter((line) => line.includes("[arce]"))).toEqual([
        `ctx: [arce] in ${join(root, "ctx.toml")} has no effect: arce is now the default pipeline (keyword, vectors and the code graph in one ranking, the [rerank] reranker on its top); remove the section\n`,
      ]);
    } finally {
      await engine.close();
    }
  });
});
