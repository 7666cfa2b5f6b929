import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { gitRepo, writeFiles } from "../helpers/temp-dir.js";

interface StatusJson {
  resources: {
    skipped: Record<string, number>;
    skippedFiles: { reason: string; path: string; bytes: number | null }[];
  }[];
}

describe("skipped files named", () => {
  it("ctx status and ctx index --verbose name them by reason, a few in text, all in JSON", () => {
    const root = gitRepo({
      "src/retry.py": "def retry_with_backoff(call):\n    return call()\n",
      ".gitignore": "generated/\n",
      "generated/out.py": "x = 1\n",
    });
    writeFileSync(join(root, "uv.lock"), "x".repeat(1_300_000));
    const images: Record<string, string> = {};
    for (let n = 0; n < 8; n++) images[`assets/icon${n}.png`] = "not really a picture";
    writeFiles(root, images);

    const index = runCli(["index", "--verbose"], root);
    expect(index.code, index.stderr).toBe(0);
    expect(index.stdout).toContain(`Skipped in ${root}:`);
    expect(index.stdout).toContain("  too-large: uv.lock (1.2 MB)");
    expect(index.stdout).toMatch(
      /^ {2}binary: assets\/icon0\.png, assets\/icon1\.png, assets\/icon2\.png, assets\/icon3\.png, assets\/icon4\.png, and 3 more$/m,
    );
    expect(index.stdout).toContain("  ignored: generated/");
    // Without --verbose, counts only.
    const quiet = runCli(["index"], root);
    expect(quiet.stdout).not.toContain("uv.lock");

    const status = runCli(["status"], root);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain("      too-large: uv.lock (1.2 MB)");
    expect(status.stdout).toMatch(/^ {6}binary: .*, and 3 more$/m);

    const json = JSON.parse(runCli(["status", "--json"], root).stdout) as StatusJson;
    const [resource] = json.resources;
    expect(resource?.skipped.binary).toBe(8);
    expect(resource?.skippedFiles.filter((file) => file.reason === "binary")).toHaveLength(8);
    expect(resource?.skippedFiles).toContainEqual({
      reason: "too-large",
      path: "uv.lock",
      bytes: 1_300_000,
    });
  });
});

describe("the agent config ctx init writes", () => {
  it("is skipped as agent-config, named, and never comes back as an answer", () => {
    const root = gitRepo({
      "src/serve.py": "def start_server(port):\n    return port\n",
    });
    for (const agent of ["claude-code", "cursor", "codex"]) {
      const init = runCli(["init", agent, ...(agent === "claude-code" ? ["--hook"] : [])], root);
      expect(init.code, init.stderr).toBe(0);
    }
    const index = runCli(["index", "--json"], root);
    expect(index.code, index.stderr).toBe(0);
    const report = JSON.parse(index.stdout) as {
      skipped: Record<string, number>;
      skippedFiles: { files: { reason: string; path: string }[] }[];
    };
    const named = report.skippedFiles.flatMap((entry) =>
      entry.files.filter((file) => file.reason === "agent-config").map((file) => file.path),
    );
    expect(named.sort()).toEqual([
      ".claude/settings.local.json",
      ".codex/config.toml",
      ".cursor/mcp.json",
      ".mcp.json",
    ]);
    expect(report.skipped["agent-config"]).toBe(4);
    // Words only those files hold find nothing in them.
    const query = runCli(["query", "mcpServers ctx serve context-engine hook", "--json"], root);
    expect(query.stdout).not.toMatch(/\.mcp\.json|settings\.local\.json|config\.toml|cursor/);
  });
});
