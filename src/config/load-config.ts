import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { parse, TomlError } from "smol-toml";
import type { z } from "zod";
import { ConfigError } from "../core/errors.js";
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
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(path, `cannot read: ${(error as Error).message}`, { cause: error });
  }
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
