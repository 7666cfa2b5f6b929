import { execFileSync } from "node:child_process";
import { cpSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BudgetTooSmallError } from "../../src/assemble/pack-to-budget.js";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { hotFragments } from "../../src/engine/hot-files.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));
const AGENTS = "# Agents\n\nRun `npm test` before every commit. Never edit generated files.\n";
let engine: ContextEngine;
let root: string;

beforeAll(async () => {
  root = tempDir("ctx-hot-");
  cpSync(FIXTURES, join(root, "src"), { recursive: true });
  writeFiles(root, { "AGENTS.md": AGENTS, "docs/STYLE.md": "Two spaces, no tabs.\n" });
  engine = await ContextEngine.open({ start: root, cwd: root, env: { XDG_CONFIG_HOME: root } });
  await engine.index([root]);
});

afterAll(async () => {
  await engine.close();
});

describe("the hot tier", () => {
  it("puts hot files in every answer whose share holds them, never over budget", async () => {
    const share = engine.config.tiers.hotShare;
    const agentsTokens = o200kCounter.count(AGENTS);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 60, max: 4000 }),
        fc.constantFrom("markdown", "json", "xml" as const),
        fc.constantFrom("retry attempts", "cache get", "RetryRunner run"),
        async (budget, format, task) => {
          let result: Awaited<ReturnType<ContextEngine["query"]>>;
          try {
            result = await engine.query({ task, budget, format });
          } catch (error) {
            expect(error).toBeInstanceOf(BudgetTooSmallError);
            return;
          }
          expect(o200kCounter.count(result.output)).toBeLessThanOrEqual(budget);
          const hot = result.fragments.find((f) => f.tier === "hot");
          // With its heading and fence a file costs ~30 tokens more than its text; in JSON, with
          // its fields (id, lines, score, tokens, depth, tier) and escaped newlines, up to ~50.
          if (agentsTokens + 56 <= share * budget) {
            expect(hot?.source.kind === "file" && hot.source.path).toBe("AGENTS.md");
            expect(hot?.content).toBe(AGENTS.trimEnd());
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("comes first, is marked hot in JSON, and leaves the rest to the strategies", async () => {
    const result = await engine.query({
      task: "retry attempts delay",
      budget: 3000,
      format: "json",
    });
    const parsed = JSON.parse(result.output) as { fragments: { path: string; tier?: string }[] };
    expect(parsed.fragments[0]).toMatchObject({ path: "AGENTS.md", tier: "hot" });
    expect(parsed.fragments.slice(1).every((f) => f.tier === undefined)).toBe(true);
    expect(parsed.fragments.length).toBeGreaterThan(3);
  });

  it("stays out when --path leaves it out", async () => {
    const result = await engine.query({ task: "retry attempts", budget: 3000, paths: ["src/"] });
    expect(result.fragments.some((f) => f.tier === "hot")).toBe(false);
  });

  it("takes the files [tiers] hot names, and ctx status counts by tier", async () => {
    const other = tempDir("ctx-hot-config-");
    writeFiles(other, {
      "ctx.toml": '[tiers]\nhot = ["docs/STYLE.md", "missing.md", "../outside.md"]\n',
      "docs/STYLE.md": "Two spaces, no tabs.\n",
      "AGENTS.md": AGENTS,
      "src/a.ts": "export const a = 1;\n",
    });
    const configured = await ContextEngine.open({
      start: other,
      cwd: other,
      env: { XDG_CONFIG_HOME: other },
    });
    try {
      await configured.index([other]);
      const result = await configured.query({ task: "a", budget: 2000 });
      const hot = result.fragments.filter((f) => f.tier === "hot");
      expect(hot.map((f) => f.source.kind === "file" && f.source.path)).toEqual(["docs/STYLE.md"]);
      const status = await configured.status();
      expect(status.tiers).toEqual({
        hot: ["docs/STYLE.md"],
        warm: 4,
        cold: { commits: 0, closedPlans: 0 },
      });
    } finally {
      await configured.close();
    }
  });

  it("offers only regular files inside the root, never from .git/ or node_modules/", () => {
    const other = tempDir("ctx-hot-hostile-");
    const outside = tempDir("ctx-hot-outside-");
    writeFiles(outside, { "secret.md": "OUTSIDE-MARKER\n" });
    writeFiles(other, {
      ".git/config": "[remote]\n\turl = https://x:OUTSIDE-MARKER@e/r\n",
      "node_modules/dep/README.md": "OUTSIDE-MARKER\n",
      "docs/ok.md": "Plain and inside.\n",
    });
    symlinkSync(join(other, "docs", "ok.md"), join(other, "linked.md"));
    symlinkSync(join(outside, "secret.md"), join(other, "out.md"));
    symlinkSync("/dev/zero", join(other, "zero.md"));
    execFileSync("mkfifo", [join(other, "fifo.md")]);
    const names = [
      ".git/config",
      "node_modules/dep/README.md",
      "out.md",
      "zero.md",
      "fifo.md",
      "docs/ok.md",
      "linked.md",
    ];
    const hot = hotFragments([{ id: "r", root: other, secretFiles: [] }], names, o200kCounter);
    expect(hot.map((f) => f.source.kind === "file" && f.source.path)).toEqual([
      "docs/ok.md",
      "linked.md",
    ]);
    expect(JSON.stringify(hot)).not.toContain("OUTSIDE-MARKER");
  });
});
