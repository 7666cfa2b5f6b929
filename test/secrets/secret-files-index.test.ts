import { chmodSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { FakeSecrets } from "../helpers/fake-secrets.js";
import { gitRepo, tempDir, writeFiles } from "../helpers/temp-dir.js";

const fake = new FakeSecrets(5);

/** An engine on `root` whose user config (not the project's) holds `userToml`. */
async function open(root: string, userToml = ""): Promise<ContextEngine> {
  const config = tempDir("ctx-user-");
  writeFiles(config, { "ctx/config.toml": userToml });
  return ContextEngine.open({ start: root, cwd: root, env: { XDG_CONFIG_HOME: config } });
}

async function indexedPaths(engine: ContextEngine): Promise<string[]> {
  const [resource] = await engine.store.documents.listResources();
  return (await engine.store.documents.listDocuments(resource?.id ?? ""))
    .map((doc) => doc.path)
    .sort();
}

describe("files that hold secrets, run after run", () => {
  it("takes out a file indexed before once it holds a secret, and names it", async () => {
    const root = gitRepo({
      "src/config.ts": "export const retries = 3;\n",
      "src/app.ts": "export function start() {}\n",
    });
    const engine = await open(root);
    try {
      await engine.index([root]);
      expect(await indexedPaths(engine)).toEqual(["src/app.ts", "src/config.ts"]);
      writeFileSync(
        join(root, "src/config.ts"),
        `export const retries = 3;\nexport const token = "${fake.githubToken()}";\n`,
      );
      const report = await engine.index([root]);
      expect(report.removed).toBe(1);
      expect(report.skipped.secret).toBe(1);
      expect(report.secretFiles).toEqual([
        {
          root: await realRoot(engine),
          files: [{ path: "src/config.ts", found: "GitHub token on line 2" }],
        },
      ]);
      expect(await indexedPaths(engine)).toEqual(["src/app.ts"]);
      const [resource] = await engine.store.documents.listResources();
      expect(resource?.secretFiles).toEqual([
        { path: "src/config.ts", found: "GitHub token on line 2" },
      ]);
      // Nothing changed since: the file is not counted as new each time.
      expect(await engine.staleness()).toEqual({ changed: 0, added: 0, removed: 0 });
    } finally {
      await engine.close();
    }
  });

  it("indexes them as before with include_secrets in the user's config, and takes them out when it is turned off", async () => {
    const root = gitRepo({
      "src/app.ts": "export function start() {}\n",
      "src/keys.ts": `export const stripe = "${fake.stripeKey()}";\n`,
      ".env": "DB_PASSWORD=hunter22hunter\n",
    });
    const including = await open(root, "[index]\ninclude_secrets = true\n");
    try {
      const report = await including.index([root]);
      expect(report.skipped.secret).toBe(0);
      expect(await indexedPaths(including)).toEqual([".env", "src/app.ts", "src/keys.ts"]);
      expect((await including.readFragment({ path: ".env" })).text).toContain("DB_PASSWORD");
    } finally {
      await including.close();
    }
    const excluding = await open(root);
    try {
      const report = await excluding.index([root]);
      expect(report.removed).toBe(2);
      expect(report.secretFiles[0]?.files.map((file) => file.path)).toEqual([
        ".env",
        "src/keys.ts",
      ]);
      expect(await indexedPaths(excluding)).toEqual(["src/app.ts"]);
    } finally {
      await excluding.close();
    }
  });

  it("does not serve one by read_fragment, even gitignored and never indexed, or linked to", async () => {
    const root = gitRepo({ "src/app.ts": "export function start() {}\n", ".gitignore": ".env\n" });
    writeFiles(root, { ".env": "SECRET=value-of-the-env-file\n" });
    const engine = await open(root);
    try {
      await engine.index([root]);
      await expect(engine.readFragment({ path: ".env" })).rejects.toThrow(
        /\.env is not served: it holds secrets \(file name\)/,
      );
      symlinkSync(join(root, ".env"), join(root, "notes.txt"));
      await expect(engine.readFragment({ path: "notes.txt" })).rejects.toThrow(/not served/);
      writeFiles(root, { "src/late.ts": `const key = "${fake.openAiKey()}";\n` });
      // Not indexed yet: the content says it.
      await expect(engine.readFragment({ path: "src/late.ts" })).rejects.toThrow(
        /src\/late\.ts is not served: it holds secrets \(OpenAI or Anthropic key\)/,
      );
      expect((await engine.readFragment({ path: "src/app.ts" })).text).toContain("start");
    } finally {
      await engine.close();
    }
  });

  it("leaves a hot file that holds a secret out of the hot tier", async () => {
    const root = gitRepo({
      "AGENTS.md": `Deploy with ${fake.npmToken()}.\n`,
      "CLAUDE.md": "Run the tests first.\n",
      "src/app.ts": "export function start() {}\n",
    });
    const engine = await open(root);
    try {
      await engine.index([root]);
      const result = await engine.query({ task: "deploy", budget: 2000 });
      const hot = result.fragments.filter((fragment) => fragment.tier === "hot");
      expect(
        hot.map((fragment) => fragment.source.kind === "file" && fragment.source.path),
      ).toEqual(["CLAUDE.md"]);
    } finally {
      await engine.close();
    }
  });
});

describe("the index's files are the user's only", () => {
  it("creates .ctx 0700 and the index 0600 whatever the umask, and tightens an older one", async () => {
    const root = gitRepo({ "src/app.ts": "export function start() {}\n" });
    const umask = process.umask(0o000);
    let engine: ContextEngine;
    try {
      engine = await open(root);
      await engine.index([root]);
    } finally {
      process.umask(umask);
    }
    const mode = (path: string) => statSync(path).mode & 0o777;
    expect(mode(join(root, ".ctx"))).toBe(0o700);
    expect(mode(join(root, ".ctx", "index.db"))).toBe(0o600);
    expect(mode(join(root, ".ctx", "index.db-wal"))).toBe(0o600);
    await engine.close();
    // As an earlier version left them.
    chmodSync(join(root, ".ctx"), 0o755);
    chmodSync(join(root, ".ctx", "index.db"), 0o644);
    const again = await open(root);
    try {
      expect(mode(join(root, ".ctx"))).toBe(0o700);
      expect(mode(join(root, ".ctx", "index.db"))).toBe(0o600);
    } finally {
      await again.close();
    }
  });
});

async function realRoot(engine: ContextEngine): Promise<string> {
  const [resource] = await engine.store.documents.listResources();
  return resource?.root ?? "";
}
