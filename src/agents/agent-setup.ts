import { lstatSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { ConfigError, UsageError } from "../core/errors.js";
import { CONFIG_FILE_MAX_BYTES, readRegularText } from "../core/read-regular-file.js";
import type { AgentName } from "./agent-names.js";

export { AGENTS, type AgentName } from "./agent-names.js";

/**
 * How the agent starts ctx: through the project's own install (`npx --no-install
 * context-engine`, which never downloads a package of that name), else this very CLI.
 */
export interface CtxInvocation {
  readonly command: string;
  readonly args: readonly string[];
}

export interface SetupOptions {
  /** Also add a prompt hook that hands the agent context on every turn (Claude Code). */
  readonly hook: boolean;
  /** Token budget of the hook's context. */
  readonly hookBudget: number;
}

/** One file `ctx init` writes: what is there now (null: nothing) and what it will hold. */
export interface PlannedFile {
  readonly path: string;
  readonly before: string | null;
  readonly after: string;
}

/** Name of the MCP server entry, and so of its tools' prefix (`mcp__ctx__get_context`). */
export const SERVER_NAME = "ctx";
/** Seconds Claude Code gives the prompt hook. */
const HOOK_TIMEOUT_SECONDS = 60;

/**
 * The files that set `agent` up to use ctx in the project at `root`: its MCP
 * server entry for `ctx serve`, and with `hook` (Claude Code only) a
 * UserPromptSubmit hook running `ctx hook claude-code`. Existing files are
 * merged: other servers, hooks and settings stay as they are; a ctx entry or
 * hook already there is brought up to date. A file that cannot be parsed is an
 * error, so nothing is written over it.
 */
export function planSetup(
  agent: AgentName,
  root: string,
  ctx: CtxInvocation,
  options: SetupOptions,
): PlannedFile[] {
  if (options.hook && agent !== "claude-code") {
    throw new UsageError(
      `--hook is for claude-code: ${agent}'s hooks cannot add context to a prompt; its agent calls get_context instead`,
    );
  }
  const server = { command: ctx.command, args: [...ctx.args, "serve"] };
  switch (agent) {
    case "claude-code":
      return [
        mergeMcpJson(root, ".mcp.json", server),
        mergeClaudeSettings(root, ctx, options),
        ...sharedClaudeSettingsWithoutOurHook(root),
      ];
    case "cursor":
      return [mergeMcpJson(root, ".cursor/mcp.json", server)];
    case "codex":
      return [mergeCodexToml(root, server)];
  }
}

/**
 * The file's text, null when there is none. It is read, and will be written,
 * only as a regular file inside the project: a link out of it (to a file of
 * the user's elsewhere, or to nowhere, which writing would create), a FIFO or
 * a device is refused before anything is written.
 */
function readExisting(path: string, root: string): string | null {
  const read = readRegularText(path, { maxBytes: CONFIG_FILE_MAX_BYTES, root });
  if (read.ok) return read.text;
  if (read.reason === "missing") {
    if (!lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) return null;
    throw new ConfigError(
      path,
      "is a symbolic link to a missing file: remove it, then run ctx init again; nothing was written",
    );
  }
  throw new ConfigError(
    path,
    `cannot use it: ${read.detail}; replace it with a plain file, then run ctx init again; nothing was written`,
  );
}

function parseJsonObject(path: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      path,
      `not valid JSON (${(error as Error).message}): fix or move it, then run ctx init again; nothing was written`,
    );
  }
  if (!isObject(value)) {
    throw new ConfigError(path, "does not hold a JSON object: fix or move it; nothing was written");
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `{"mcpServers": {"ctx": …}}`, as Claude Code's `.mcp.json` and Cursor's `mcp.json` hold it. */
function mergeMcpJson(
  root: string,
  name: string,
  server: { command: string; args: string[] },
): PlannedFile {
  const path = join(root, name);
  const before = readExisting(path, root);
  const config = before === null ? {} : parseJsonObject(path, before);
  const servers = config.mcpServers ?? {};
  if (!isObject(servers)) {
    throw new ConfigError(path, '"mcpServers" is not an object: fix it; nothing was written');
  }
  const existing = servers[SERVER_NAME];
  // Keep what the user added to the entry (env, a timeout); only the command is ours.
  const entry = { ...(isObject(existing) ? existing : {}), ...server };
  const after = { ...config, mcpServers: { ...servers, [SERVER_NAME]: entry } };
  return { path, before, after: `${JSON.stringify(after, null, 2)}\n` };
}

/**
 * Claude Code's local settings, the user's own part of the project
 * (`.claude/settings.local.json`, not committed): the `.mcp.json` server
 * approved (`enabledMcpjsonServers`: each teammate decides that), and with
 * `hook` a UserPromptSubmit hook that runs `ctx hook claude-code`, whose
 * command may name this machine's paths; an earlier ctx hook is replaced,
 * others are kept.
 */
function mergeClaudeSettings(root: string, ctx: CtxInvocation, options: SetupOptions): PlannedFile {
  const path = join(root, ".claude", "settings.local.json");
  const before = readExisting(path, root);
  const read = before === null ? {} : parseJsonObject(path, before);
  const approved = Array.isArray(read.enabledMcpjsonServers) ? read.enabledMcpjsonServers : [];
  const settings: Record<string, unknown> = {
    ...read,
    enabledMcpjsonServers: approved.includes(SERVER_NAME) ? approved : [...approved, SERVER_NAME],
  };
  if (!options.hook) return { path, before, after: `${JSON.stringify(settings, null, 2)}\n` };
  const hooks = settings.hooks ?? {};
  if (!isObject(hooks)) {
    throw new ConfigError(path, '"hooks" is not an object: fix it; nothing was written');
  }
  const existing = hooks.UserPromptSubmit ?? [];
  if (!Array.isArray(existing)) {
    throw new ConfigError(
      path,
      '"hooks.UserPromptSubmit" is not a list: fix it; nothing was written',
    );
  }
  const command = [
    ctx.command,
    ...ctx.args,
    "hook",
    "claude-code",
    "--budget",
    String(options.hookBudget),
  ]
    .map(shellQuote)
    .join(" ");
  const ours = {
    hooks: [{ type: "command", command, timeout: HOOK_TIMEOUT_SECONDS }],
  };
  const others = existing.filter((group) => !isCtxHookGroup(group));
  const after = {
    ...settings,
    hooks: { ...hooks, UserPromptSubmit: [...others, ours] },
  };
  return { path, before, after: `${JSON.stringify(after, null, 2)}\n` };
}

/**
 * Earlier versions put the hook in the shared `.claude/settings.json`, where it
 * carried one machine's paths to every teammate: taken out of there (the rest
 * of the file stays as it is) now that the local file holds it.
 */
function sharedClaudeSettingsWithoutOurHook(root: string): PlannedFile[] {
  const path = join(root, ".claude", "settings.json");
  const before = readExisting(path, root);
  if (before === null) return [];
  const settings = parseJsonObject(path, before);
  const hooks = settings.hooks;
  if (!isObject(hooks) || !Array.isArray(hooks.UserPromptSubmit)) return [];
  const others = hooks.UserPromptSubmit.filter((group) => !isCtxHookGroup(group));
  if (others.length === hooks.UserPromptSubmit.length) return [];
  const { UserPromptSubmit: _ours, ...otherHooks } = hooks;
  const keptHooks = others.length > 0 ? { ...otherHooks, UserPromptSubmit: others } : otherHooks;
  const { hooks: _hooks, ...rest } = settings;
  const after = Object.keys(keptHooks).length > 0 ? { ...rest, hooks: keptHooks } : rest;
  return [{ path, before, after: `${JSON.stringify(after, null, 2)}\n` }];
}

function isCtxHookGroup(group: unknown): boolean {
  if (!isObject(group) || !Array.isArray(group.hooks)) return false;
  return group.hooks.some(
    (hook) =>
      isObject(hook) &&
      typeof hook.command === "string" &&
      / hook claude-code\b/.test(hook.command),
  );
}

/**
 * Codex's project config (`.codex/config.toml`, read in trusted projects): the
 * `[mcp_servers.ctx]` table appended, or rewritten in place when it is there;
 * the rest of the file, comments included, is left as it was.
 */
function mergeCodexToml(root: string, server: { command: string; args: string[] }): PlannedFile {
  const path = join(root, ".codex", "config.toml");
  const before = readExisting(path, root);
  if (before !== null) {
    try {
      parseToml(before);
    } catch (error) {
      throw new ConfigError(
        path,
        `not valid TOML (${(error as Error).message.split("\n")[0]}): fix or move it; nothing was written`,
      );
    }
  }
  const table = [
    `[mcp_servers.${SERVER_NAME}]`,
    `command = ${JSON.stringify(server.command)}`,
    `args = [${server.args.map((arg) => JSON.stringify(arg)).join(", ")}]`,
  ].join("\n");
  if (before === null) return { path, before, after: `${table}\n` };
  const lines = before.split("\n");
  const start = lines.findIndex((line) => line.trim() === `[mcp_servers.${SERVER_NAME}]`);
  if (start < 0) {
    const separator = before.endsWith("\n") || before === "" ? "" : "\n";
    return { path, before, after: `${before}${separator}\n${table}\n` };
  }
  // The table runs to the next table header; keys other than command and args stay.
  let end = start + 1;
  while (end < lines.length && !/^\s*\[/.test(lines[end] as string)) end++;
  const kept = lines.slice(start + 1, end).filter((line) => !/^\s*(command|args)\s*=/.test(line));
  const after = [...lines.slice(0, start), table, ...kept, ...lines.slice(end)].join("\n");
  return { path, before, after };
}

/** Quotes an argument for the POSIX shell that runs hook commands, when it needs it. */
function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
