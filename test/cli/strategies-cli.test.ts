import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { runCli } from "../helpers/run-cli.js";
import { gitRepo, tempDir, writeFiles } from "../helpers/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));

/** A custom strategy: returns the project's README as a "hot" fragment. */
const README_STRATEGY = `
import { readFileSync } from "node:fs";
import { join } from "node:path";

export class PinnedReadme {
  constructor(context) {
    this.root = context.projectRoot;
    this.counter = context.counter;
  }
  name = "pinned-readme";
  capabilities = {
    usesText: true, usesVector: false, usesGraph: false, usesTemporal: false,
    resourceTypes: ["folder", "git"], qualityScore: 0.8,
    supportsDepthBreadth: false, supportsPlanHierarchy: false, supportsTemporal: false,
  };
  canHandle() { return 0.9; }
  async assemble(request, backends, budget) {
    const content = readFileSync(join(this.root, "README.md"), "utf8").trimEnd();
    const lines = content.split("\\n").length;
    return [{
      id: "pinned:README.md", content, score: 1, tokens: this.counter.count(content), tier: "hot",
      source: { kind: "file", resourceId: "pinned", path: "README.md", startLine: 1, endLine: lines, language: "markdown" },
    }];
  }
  explain() { return "pinned-readme: always offers the README first"; }
}
`;

function project(toml: string, trust = true): string {
  const root = gitRepo({
    "README.md": "# Retry demo\n\nThe zanzibar protocol is documented here.\n",
  });
  cpSync(FIXTURES, join(root, "src"), { recursive: true });
  writeFiles(root, { "strategies/mine.js": README_STRATEGY, "ctx.toml": toml });
  // A project's own strategy code runs only once the user trusts its ctx.toml.
  const trusted = trust ? runCli(["trust"], root, { XDG_CONFIG_HOME: configHome }) : null;
  if (trusted && trusted.code !== 0) throw new Error(trusted.stderr);
  return root;
}

/** The user's config folder, outside every project: where `ctx trust` records its decisions. */
const configHome = tempDir("ctx-home-");

function ctx(args: readonly string[], root: string) {
  return runCli(args, root, { XDG_CONFIG_HOME: configHome });
}

const WITH_CUSTOM = `
[context.strategies]
enabled = ["simple-keyword", "pinned-readme"]

[context.strategies.custom]
"pinned-readme" = "./strategies/mine.js:PinnedReadme"

[context.strategies.settings.pinned-readme]
timeout_seconds = 5
max_fragments = 50
max_workers = 4
circuit_breaker_threshold = 3
enabled = true
`;

describe("strategies from the CLI", () => {
  it("runs a custom strategy loaded from a .js file named in ctx.toml, end to end", () => {
    const root = project(WITH_CUSTOM);
    const result = ctx(
      ["query", "retry attempts", "--budget", "2000", "--format", "json", "--explain"],
      root,
    );
    expect(result.code, result.stderr).toBe(0);
    const output = JSON.parse(result.stdout) as {
      provenance: {
        strategies: { name: string; status: string; allocated: number; errors: string[] }[];
      };
      fragments: { path: string; strategy: string }[];
    };
    expect(output.provenance.strategies.map((s) => [s.name, s.status])).toEqual([
      ["simple-keyword", "ran"],
      ["pinned-readme", "ran"],
    ]);
    expect(output.fragments.find((f) => f.path === "README.md")?.strategy).toBe("pinned-readme");
    expect(output.fragments.some((f) => f.strategy === "simple-keyword")).toBe(true);
    expect(o200kCounter.count(result.stdout)).toBeLessThanOrEqual(2000);
  });

  it("lists strategies with quality, backends, enabled and breaker state, and explains one", () => {
    const root = project(WITH_CUSTOM);
    const list = ctx(["strategies", "list"], root);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/NAME\s+QUALITY\s+BACKENDS\s+ENABLED\s+BREAKER/);
    expect(list.stdout).toMatch(/pinned-readme\s+0\.80\s+text\s+yes\s+closed/);
    expect(list.stdout).toMatch(/simple-keyword\s+0\.30\s+text\s+yes\s+closed\s+built-in/);
    const explain = ctx(["strategies", "explain", "simple-keyword"], root);
    expect(explain.stdout).toMatch(/BM25/);
    expect(explain.stdout).toMatch(/timeout 30 s, max fragments 100/);
    expect(ctx(["strategies", "explain", "nope"], root).stderr).toMatch(
      /unknown strategy "nope"; registered: arce, breadth-depth-navigator, pinned-readme, plan-decision-context, semantic-embedding, simple-keyword, temporal-archaeology/,
    );
    expect(list.stdout).not.toMatch(/^arce\s+0\.\d/m);
    expect(list.stdout).toMatch(
      /^arce = simple-keyword \+ semantic-embedding \+ breadth-depth-navigator in one ranking/m,
    );
    expect(ctx(["strategies", "explain", "arce"], root).stdout).toMatch(/^arce = simple-keyword/);
  });

  it("shows provenance in Markdown with --explain", () => {
    const root = project(WITH_CUSTOM);
    const result = ctx(["query", "zanzibar protocol", "--budget", "1500", "--explain"], root);
    expect(result.stdout).toMatch(
      /> - simple-keyword: confidence 0\.50 × quality 0\.30, allocated \d+ tokens/,
    );
    expect(result.stdout).toMatch(/> - pinned-readme: confidence 0\.90 × quality 0\.80/);
    expect(result.stdout).toMatch(/## README\.md:1-3 .*pinned-readme, hot\)/);
  });

  it("sets, shows and resets the project's strategies without touching ctx.toml", () => {
    const root = project(WITH_CUSTOM);
    const set = ctx(["project", "context", "set", "--strategy", "pinned-readme"], root);
    expect(set.code, set.stderr).toBe(0);
    expect(ctx(["project", "context", "show"], root).stdout).toMatch(
      /: pinned-readme\n\(from project override/,
    );
    const query = JSON.parse(
      ctx(["query", "retry", "--format", "json", "--explain"], root).stdout,
    ) as {
      provenance: { strategies: { name: string }[] };
    };
    expect(query.provenance.strategies.map((s) => s.name)).toEqual(["pinned-readme"]);
    expect(ctx(["project", "context", "set", "--strategy", "ghost"], root).stderr).toMatch(
      /"ghost" is not registered/,
    );
    const reset = ctx(["project", "context", "reset"], root);
    expect(reset.stdout).toMatch(/simple-keyword, pinned-readme\n\(from config .*ctx\.toml\)/);
  });

  it("refuses a config with an unknown strategy setting or an unregistered enabled strategy", () => {
    const root = project("[context.strategies.settings.simple-keyword]\ntimeout = 5\n", false);
    expect(ctx(["query", "x"], root).stderr).toMatch(
      /ctx\.toml: unknown key "context\.strategies\.settings\.simple-keyword\.timeout"/,
    );
    writeFileSync(join(root, "ctx.toml"), '[context.strategies]\nenabled = ["missing-one"]\n');
    const result = ctx(["query", "x"], root);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/ctx\.toml: enabled strategy "missing-one" is not registered/);
  });
});
