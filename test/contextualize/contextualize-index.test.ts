import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { LlmServer } from "../helpers/llm-server.js";
import { tempDir, userConfigHome, writeFiles } from "../helpers/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));

let server: LlmServer;
beforeEach(async () => {
  server = await LlmServer.start();
});
afterEach(async () => {
  await server.close();
});

const FAST =
  "[contextualize]\nretry_base_seconds = 0.01\nretry_max_seconds = 0.05\nrequest_timeout_seconds = 2\nmax_retries = 1\n";

/** A project, its config file, and (optionally) the user's own config: where include_secrets may be set. */
async function project(files: Record<string, string> = {}, toml = FAST, userToml?: string) {
  const root = tempDir("ctx-contexts-");
  cpSync(join(FIXTURES, "sample.py"), join(root, "retry.py"));
  cpSync(join(FIXTURES, "sample.go"), join(root, "retry.go"));
  writeFiles(root, { "ctx.toml": toml, ...files });
  const env = {
    XDG_CONFIG_HOME: userToml === undefined ? root : userConfigHome(userToml),
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: server.url,
  };
  const engine = await ContextEngine.open({ start: root, cwd: root, env });
  return { root, engine };
}

describe("contextualizing an index with a model", () => {
  it("generates every chunk's context, then never calls the model again for unchanged chunks", async () => {
    const { root, engine } = await project();
    try {
      const first = await engine.index([root]);
      expect(first.contexts).toMatchObject({
        generator: "anthropic",
        model: "claude-haiku-4-5",
        reason: "ANTHROPIC_API_KEY is set",
      });
      const chunks = (await engine.store.stats()).chunks;
      expect(first.contexts.report).toMatchObject({
        pending: chunks,
        generated: chunks,
        failed: 0,
        cached: 0,
      });
      expect((await engine.store.stats()).contexts).toEqual({ generated: chunks });
      const calls = server.modelRequests.length;
      expect(calls).toBeGreaterThan(0);

      const again = await engine.index([root]);
      expect(again.contexts.report?.pending).toBe(0);
      expect(server.modelRequests.length).toBe(calls);

      writeFileSync(
        join(root, "retry.go"),
        "package retry\n\n// Fresh is new.\nfunc Fresh() int { return 1 }\n",
      );
      const changed = await engine.index([root]);
      expect(changed.contexts.report?.documents).toBe(1);
      const newCalls = server.modelRequests.slice(calls);
      expect(newCalls.length).toBeGreaterThan(0);
      expect(
        newCalls.every(
          (request) =>
            request.body.includes("func Fresh()") && !request.body.includes("class RetryPolicy"),
        ),
      ).toBe(true);
    } finally {
      await engine.close();
    }
  });

  it("lets one process at a time pay for contexts: a second run at once leaves them to the first", async () => {
    const { root, engine } = await project();
    const env = {
      XDG_CONFIG_HOME: root,
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: server.url,
    };
    const other = await ContextEngine.open({ start: root, cwd: root, env });
    try {
      await engine.index([root], { contextualize: "structural" });
      const chunks = (await engine.store.stats()).chunks;
      // The second run starts while the first one's model calls are still out.
      server.delayMs = 1000;
      const running = engine.index([root]);
      while (server.modelRequests.length === 0) await new Promise((r) => setTimeout(r, 10));
      const reports = [await other.index([root]), await running].map((run) => run.contexts.report);
      expect(reports.map((report) => report?.deferred).sort()).toEqual([false, true]);
      const paid = reports.find((report) => !report?.deferred);
      expect(paid).toMatchObject({ pending: chunks, generated: chunks });
      expect(reports.find((report) => report?.deferred)).toMatchObject({ generated: 0, cached: 0 });
      expect((await engine.store.stats()).contexts).toEqual({ generated: chunks });
      expect(await engine.store.state.getMeta("contextualize_lease")).toBeNull();

      // The lease was given back: the next run (nothing pending) goes ahead.
      server.delayMs = 0;
      const next = await other.index([root]);
      expect(next.contexts.report).toMatchObject({ pending: 0, deferred: false });
    } finally {
      await other.close();
      await engine.close();
    }
  });

  it("uses contexts for search but shows only the chunk in fragments", async () => {
    const { root, engine } = await project();
    try {
      await engine.index([root]);
      // "Context of chunk …" appears only in generated contexts, never in the code.
      const hits = await engine.search("context chunk", 5);
      expect(hits.length).toBeGreaterThan(0);
      const result = await engine.query({ task: "context chunk", budget: 3000, format: "json" });
      expect(result.output).not.toContain("Context of chunk");
    } finally {
      await engine.close();
    }
  });

  it("marks chunks whose context failed, keeps their structural context, and retries them next run", async () => {
    const { root, engine } = await project();
    try {
      server.outage = "server-error";
      const failed = await engine.index([root]);
      server.outage = null;
      expect(failed.contexts.report?.failed).toBeGreaterThan(0);
      const stats = await engine.store.stats();
      expect(stats.contexts["no context"]).toBe(failed.contexts.report?.failed);
      // Failed chunks keep their structural context for search.
      expect((await engine.search("retry", 3)).length).toBeGreaterThan(0);

      const retried = await engine.index([root]);
      expect(retried.contexts.report?.pending).toBe(failed.contexts.report?.failed);
      expect(retried.contexts.report?.failed).toBe(0);
      expect((await engine.store.stats()).contexts["no context"]).toBeUndefined();
    } finally {
      await engine.close();
    }
  });

  it("regenerates when the model changes, and reuses the cache when it changes back", async () => {
    const { root, engine } = await project();
    await engine.index([root]);
    await engine.close();
    const calls = server.modelRequests.length;
    // The model is the user's choice: their own config names it, the project's may not.
    const home = userConfigHome('[contextualize]\nmodel = "claude-sonnet-4-5"\n');
    const other = await ContextEngine.open({
      start: root,
      cwd: root,
      env: { XDG_CONFIG_HOME: home, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url },
    });
    try {
      const switched = await other.index([root]);
      expect(switched.contexts.report?.generated).toBeGreaterThan(0);
      expect(server.modelRequests.length).toBeGreaterThan(calls);
      expect(server.modelRequests.at(-1)?.json?.model).toBe("claude-sonnet-4-5");
    } finally {
      await other.close();
    }
    const back = await ContextEngine.open({
      start: root,
      cwd: root,
      env: { XDG_CONFIG_HOME: root, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url },
    });
    try {
      const before = server.modelRequests.length;
      const report = await back.index([root]);
      expect(report.contexts.report?.cached).toBe(report.contexts.report?.pending);
      expect(server.modelRequests.length).toBe(before);
    } finally {
      await back.close();
    }
  });
});

describe("secrets never leave the machine", () => {
  // Put together here, so this file holds no credential-shaped text of its own.
  const PLANTED = {
    aws: ["AKIA", "Q3EGRTXCZ5BV7JKP"].join(""),
    github: ["ghp_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join(""),
    anthropic: [
      "sk-ant-api03-",
      "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstu-ABCDEFAA",
    ].join(""),
    openai: [
      "sk-proj-",
      "Q9x8w7v6u5t4s3r2q1p0o9n8m7l6k5j4i3h2g1f0e9d8c7b6a5Z4Y3X2W1V0U9T8S7R6Q5P4",
    ].join(""),
    dbPassword: "hunter2secretpass",
    slack: ["xoxb-", "1234567890-1234567890123-abcdefghijABCDEFGHIJklmn"].join(""),
    envOnly: "ENV-FILE-ONLY-VALUE-7731",
    keyFile: "PRIVATE-KEY-FILE-CONTENT-9921",
  };
  const FILES = {
    "settings.py": [
      '"""Service settings."""',
      `AWS_ACCESS_KEY_ID = "${PLANTED.aws}"`,
      `GITHUB_TOKEN = "${PLANTED.github}"`,
      `ANTHROPIC_KEY = "${PLANTED.anthropic}"`,
      `OPENAI_KEY = "${PLANTED.openai}"`,
      `DATABASE_URL = "postgres://admin:${PLANTED.dbPassword}@db.example.com:5432/app"`,
      `SLACK = "${PLANTED.slack}"`,
      "",
      "def connect():",
      "    return DATABASE_URL",
    ].join("\n"),
    ".env": `SECRET_VALUE=${PLANTED.envOnly}\n`,
    "deploy.pem": `${PLANTED.keyFile}\n`,
  };

  it("keeps files that hold secrets out of the index, so nothing of them is sent", async () => {
    const { root, engine } = await project(FILES);
    try {
      const report = await engine.index([root]);
      expect(report.secretFiles[0]?.files.map((file) => file.path)).toEqual([
        ".env",
        "deploy.pem",
        "settings.py",
      ]);
      const sent = server.everythingSent();
      expect(sent).not.toContain("def connect()");
      for (const [name, secret] of Object.entries(PLANTED)) {
        expect(sent.includes(secret), `${name} reached the server`).toBe(false);
      }
    } finally {
      await engine.close();
    }
  });

  it("with include_secrets, masks secrets in chunks and documents, and never sends .env or key files", async () => {
    const { root, engine } = await project(FILES, FAST, "[index]\ninclude_secrets = true\n");
    try {
      const report = await engine.index([root]);
      expect(report.secretFiles).toEqual([]);
      expect(report.contexts.report?.secret).toBeGreaterThan(0);
      const sent = server.everythingSent();
      expect(sent).toContain("def connect()");
      for (const [name, secret] of Object.entries(PLANTED)) {
        expect(sent.includes(secret), `${name} reached the server`).toBe(false);
      }
      expect(sent).toContain("[REDACTED]");
    } finally {
      await engine.close();
    }
  });
});
