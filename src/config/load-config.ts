import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse, TomlError } from "smol-toml";
import type { z } from "zod";
import { ConfigError } from "../core/errors.js";
import {
  CONFIG_FILE_MAX_BYTES,
  type ReadRefusal,
  readRegularText,
} from "../core/read-regular-file.js";
import {
  type ResolvedConfig,
  resolveConfig,
  type UntrustedProjectFile,
} from "./resolved-config.js";
import { withoutRestrictedSettings } from "./restricted-settings.js";
import type { ConfigFile } from "./schema.js";
import { isTrusted, readTrustList, sha256Of } from "./trust-store.js";
import { userConfigPath } from "./user-config-path.js";

export { userConfigPath } from "./user-config-path.js";

export const PROJECT_CONFIG_FILE = "ctx.toml";

/**
 * Reads the user's config, then the project's `ctx.toml` (which wins), each
 * validated on its own. Unless the user trusts the project file as it is now
 * (`ctx trust`), its settings that choose code, credentials or destinations
 * are left out and named in `untrusted`.
 */
export async function loadConfig(
  projectRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedConfig> {
  const files: { path: string; config: ConfigFile }[] = [];
  const userFile = userConfigPath(env);
  if (existsSync(userFile)) files.push({ path: userFile, config: await readConfigFile(userFile) });
  const projectFile = projectConfigPath(projectRoot);
  let untrusted: UntrustedProjectFile | null = null;
  if (existsSync(projectFile)) {
    const { text, config } = await readConfigSource(projectFile, dirname(projectFile));
    const sha256 = sha256Of(text);
    const list = readTrustList(env);
    if (isTrusted(list, projectFile, sha256)) {
      files.push({ path: projectFile, config });
    } else {
      const kept = withoutRestrictedSettings(config, projectRoot);
      files.push({ path: projectFile, config: kept.config });
      if (kept.ignored.length > 0)
        untrusted = { file: projectFile, sha256, ignored: kept.ignored, listProblem: list.problem };
    }
  }
  return resolveConfig(files, untrusted);
}

/** The project's config file by the path trust is recorded under: the root's real path. */
export function projectConfigPath(projectRoot: string): string {
  let root = projectRoot;
  try {
    root = realpathSync(projectRoot);
  } catch {
    // A root that cannot be resolved has no config file to read either.
  }
  return join(root, PROJECT_CONFIG_FILE);
}

/** Parses and validates one TOML config file; errors name the file and the key. */
export async function readConfigFile(path: string): Promise<ConfigFile> {
  return (await readConfigSource(path)).config;
}

/**
 * The file's text (what trust is recorded for) and its validated settings. A
 * project's file (`projectRoot` given: a repository's own) must be a regular
 * file inside the project: a link out of it could make ctx read, and quote in
 * errors, any file of the user's.
 */
export async function readConfigSource(
  path: string,
  projectRoot?: string,
): Promise<{ text: string; config: ConfigFile }> {
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
  return { text, config: result.data };
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
