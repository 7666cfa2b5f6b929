import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { parse, TomlError } from "smol-toml";
import type { z } from "zod";
import { ConfigError } from "../core/errors.js";
import {
  CONFIG_FILE_MAX_BYTES,
  type ReadRefusal,
  readRegularText,
} from "../core/read-regular-file.js";
import { type ResolvedConfig, resolveConfig } from "./resolved-config.js";
import type { ConfigFile } from "./schema.js";

export const PROJECT_CONFIG_FILE = "ctx.toml";

/** The user-level config file: `$XDG_CONFIG_HOME/ctx/config.toml` or `~/.config/ctx/config.toml`. */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.length > 0
      ? env.XDG_CONFIG_HOME
      : join(homedir(), ".config");
  return join(base, "ctx", "config.toml");
}

/** Reads the user's config, then the project's `ctx.toml` (which wins), each validated on its own. */
export async function loadConfig(
  projectRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedConfig> {
  const files: { path: string; config: ConfigFile }[] = [];
  for (const path of [userConfigPath(env), join(projectRoot, PROJECT_CONFIG_FILE)]) {
    if (existsSync(path)) files.push({ path, config: await readConfigFile(path) });
  }
  return resolveConfig(files);
}

/** Parses and validates one TOML config file; errors name the file and the key. */
export async function readConfigFile(path: string): Promise<ConfigFile> {
  // A project's file (a repository's own) must be a regular file inside the project:
  // a link out of it could make ctx read, and quote in errors, any file of the user's.
  const projectRoot = basename(path) === PROJECT_CONFIG_FILE ? dirname(path) : undefined;
  const read = readRegularText(path, {
    maxBytes: CONFIG_FILE_MAX_BYTES,
    ...(projectRoot === undefined ? {} : { root: projectRoot }),
  });
  if (!read.ok)
    throw new ConfigError(path, `cannot read: ${read.detail}; ${CONFIG_FIXES[read.reason]}`);
  const text = read.text;
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    const where = error instanceof TomlError ? `line ${error.line}, column ${error.column}: ` : "";
    const reason = (error as Error).message.split("\n")[0] ?? "invalid TOML";
    throw new ConfigError(path, `${where}not valid TOML (${reason})`, { cause: error });
  }
  // The schema library takes ~60 ms to load, a fifth of a short CLI command:
  // only runs that have a config file to check pay for it.
  const { configFileSchema } = await import("./schema.js");
  const result = configFileSchema.safeParse(data);
  if (!result.success) throw new ConfigError(path, describeIssue(result.error.issues[0]));
  return result.data;
}

/** What to do about a config file that cannot be read, by why. */
const CONFIG_FIXES: Record<ReadRefusal, string> = {
  missing: "create it, or remove the link that names it",
  "not-a-regular-file": "replace it with a plain TOML file, or remove it",
  "too-large": "a config file is a few settings: replace it with a plain TOML file",
  "outside-root":
    "copy the settings into a plain ctx.toml in the project instead of linking to them",
  unreadable: "check its permissions",
};

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return "invalid configuration";
  const key = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    const prefix = key.length > 0 ? `${key}.` : "";
    const keys = issue.keys.map((name) => `"${prefix}${name}"`).join(", ");
    return `unknown key ${keys}; see README for the settings ctx reads`;
  }
  return `"${key}": ${issue.message}`;
}
