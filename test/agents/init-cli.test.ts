import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { gitRepo, writeFiles } from "../helpers/temp-dir.js";

const read = (root: string, path: string) => readFileSync(join(root, path), "utf8");
const readJson = (root: string, path: string) => JSON.parse(read(root, path));

describe("ctx init", () => {
  it("claude-code merges into .mcp.json and the user's local settings, keeping what is there", () => {
    const root = gitRepo({ "README.md": "# P\n" });
    writeFiles(root, {
      ".mcp.json": JSON.stringify({
        mcpServers: {
          other: { command: "other-server" },
          ctx: { command: "old", env: { A: "1" } },
        },
        note: "kept",
      }),
      ".claude/settings.local.json": JSON.stringify({
        permissions: { allow: ["Bash(ls)"] },
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo mine" }] }],
          Stop: [{ hooks: [{ type: "command", command: "echo stop" }] }],
        },
      }),
    });
    const result = runCli(["init", "claude-code", "--hook", "--budget", "900"], root);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("updated .mcp.json");
    const mcp = readJson(root, ".mcp.json");
    expect(mcp.note).toBe("kept");
    expect(mcp.mcpServers.other).toEqual({ command: "other-server" });
    expect(mcp.mcpServers.ctx.args.at(-1)).toBe("serve");
    expect(mcp.mcpServers.ctx.env).toEqual({ A: "1" });
    const settings = readJson(root, ".claude/settings.local.json");
    expect(settings.permissions).toEqual({ allow: ["Bash(ls)"] });
    expect(settings.enabledMcpjsonServers).toEqual(["ctx"]);
    expect(settings.hooks.Stop).toHaveLength(1);
    const prompts = settings.hooks.UserPromptSubmit.flatMap(
      (group: { hooks: { command: string }[] }) => group.hooks.map((hook) => hook.command),
    );
    expect(prompts[0]).toBe("echo mine");
    expect(prompts[1]).toMatch(/ hook claude-code --budget 900$/);
    // No shared settings file is made for what is the user's own.
    expect(existsSync(join(root, ".claude", "settings.json"))).toBe(false);

    // A second run changes nothing and adds no second hook.
    const again = runCli(["init", "claude-code", "--hook", "--budget", "900"], root);
    expect(again.stdout).toContain("left .mcp.json");
    expect(again.stdout).toContain(`left ${join(".claude", "settings.local.json")}`);
    expect(readJson(root, ".claude/settings.local.json")).toEqual(settings);
  });

  it("writes no machine path into shared files when the project has ctx installed, and moves an old hook out of them", () => {
    const root = gitRepo({ "README.md": "# P\n" });
    writeFiles(root, {
      "node_modules/.bin/context-engine": "#!/bin/sh\n",
      ".claude/settings.json": JSON.stringify({
        permissions: { allow: ["Bash(ls)"] },
        hooks: {
          UserPromptSubmit: [
            {
              hooks: [
                {
                  type: "command",
                  command: "/usr/bin/node /tmp/x/dist/cli/main.js hook claude-code --budget 1500",
                },
              ],
            },
          ],
        },
      }),
    });
    const result = runCli(["init", "claude-code", "--hook"], root);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    expect(readJson(root, ".mcp.json").mcpServers.ctx).toEqual({
      command: "npx",
      args: ["--no-install", "context-engine", "serve"],
    });
    expect(readJson(root, ".claude/settings.json")).toEqual({
      permissions: { allow: ["Bash(ls)"] },
    });
    const local = readJson(root, ".claude/settings.local.json");
    expect(local.hooks.UserPromptSubmit[0].hooks[0].command).toBe(
      "npx --no-install context-engine hook claude-code --budget 1500",
    );
    for (const file of [".mcp.json", ".claude/settings.json"]) {
      expect(read(root, file)).not.toContain(root);
      expect(read(root, file)).not.toContain("main.js");
    }
  });

  it("says in one line when it can only name this machine's path to ctx", () => {
    const root = gitRepo({ "README.md": "# P\n" });
    const result = runCli(["init", "cursor"], root);
    expect(result.code).toBe(0);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("install Context Engine into the project");
  });

  it("--dry-run prints the files it would write and writes nothing", () => {
    const root = gitRepo({ "README.md": "# P\n" });
    const result = runCli(["init", "cursor", "--dry-run"], root);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`would create ${join(".cursor", "mcp.json")}:`);
    expect(result.stdout).toContain('"mcpServers"');
    expect(() => read(root, ".cursor/mcp.json")).toThrow();
  });

  it("a file it cannot parse is one line naming it, exit 1, and is left untouched", () => {
    const root = gitRepo({ "README.md": "# P\n" });
    writeFiles(root, { ".mcp.json": "{ not json" });
    const result = runCli(["init", "claude-code"], root);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/\.mcp\.json: not valid JSON .*nothing was written/);
    expect(read(root, ".mcp.json")).toBe("{ not json");
  });

  it("codex gets a [mcp_servers.ctx] table in .codex/config.toml, comments and other keys kept", () => {
    const root = gitRepo({ "README.md": "# P\n" });
    writeFiles(root, {
      ".codex/config.toml": '# my settings\nmodel = "o4"\n\n[mcp_servers.other]\ncommand = "x"\n',
    });
    expect(runCli(["init", "codex"], root).code).toBe(0);
    const text = read(root, ".codex/config.toml");
    expect(text).toContain("# my settings");
    const config = parse(text) as {
      model: string;
      mcp_servers: Record<string, { command: string; args?: string[] }>;
    };
    expect(config.model).toBe("o4");
    expect(config.mcp_servers.other?.command).toBe("x");
    expect(config.mcp_servers.ctx?.args?.at(-1)).toBe("serve");
    // Again: the table is rewritten in place, not repeated.
    expect(runCli(["init", "codex"], root).code).toBe(0);
    expect(read(root, ".codex/config.toml").match(/\[mcp_servers\.ctx\]/g)).toHaveLength(1);
  });

  it("--hook for an agent whose hooks cannot add context is bad usage", () => {
    const root = gitRepo({ "README.md": "# P\n" });
    const result = runCli(["init", "cursor", "--hook"], root);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--hook is for claude-code");
  });

  it("the hook answers Claude Code's prompt with additionalContext, and stays quiet when it cannot", () => {
    const root = gitRepo({
      "src/pay.ts": "export function settleInvoice(total: number): number {\n  return total;\n}\n",
    });
    const hook = (input: string) =>
      runCli(["hook", "claude-code", "--budget", "400"], root, {}, input);
    const answer = hook(JSON.stringify({ prompt: "settle the invoice", cwd: root }));
    expect(answer.code).toBe(0);
    const output = JSON.parse(answer.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(output.hookSpecificOutput.hookEventName).toBe("UserPromptSubmit");
    expect(output.hookSpecificOutput.additionalContext).toContain("## src/pay.ts");
    const broken = hook("not json");
    expect(broken.code).toBe(0);
    expect(broken.stdout).toBe("");
    expect(broken.stderr).toContain("no context for this prompt");
  }, 60_000);
});
