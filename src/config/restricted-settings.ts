import { isAbsolute, relative, resolve, sep } from "node:path";
import type { ConfigFile } from "./schema.js";

/**
 * Settings that choose what code runs, which credentials are read or where the
 * code and the index go. A project's own `ctx.toml` is written by whoever wrote
 * the repository, so these are honoured from it only once the user trusts it
 * (`ctx trust`); the user's config, the environment and flags always count.
 */
const RESTRICTED: { readonly [S in keyof ConfigFile]?: readonly string[] } = {
  contextualize: ["generator", "model", "base_url", "api_key_env"],
  embeddings: ["provider", "model", "base_url", "api_key_env", "model_path", "allow_download"],
  rerank: ["provider", "model", "base_url", "api_key_env"],
  store: ["url", "schema", "project", "path"],
  index: ["include_secrets"],
};

/**
 * Values of restricted settings that choose nothing: generators and embedders
 * that run here on what ships with ctx, and keeping secret files out.
 */
const HARMLESS_VALUES: Readonly<Record<string, ReadonlySet<unknown>>> = {
  "contextualize.generator": new Set(["structural", "none"]),
  "embeddings.provider": new Set(["use-lite", "none"]),
  "index.include_secrets": new Set([false]),
};

export interface UntrustedSettings {
  /** The file as it may be used: the restricted settings taken out. */
  readonly config: ConfigFile;
  /** The settings taken out, as `section.key` (a custom strategy as `context.strategies.custom.NAME`). */
  readonly ignored: readonly string[];
}

/**
 * A project file with the settings it may not choose taken out. A store path
 * inside the project and a local generator or embedder stay: they decide
 * nothing about code, keys or destinations.
 */
export function withoutRestrictedSettings(
  config: ConfigFile,
  projectRoot: string,
): UntrustedSettings {
  const ignored: string[] = [];
  const kept: Record<string, unknown> = { ...config };
  for (const [section, keys] of Object.entries(RESTRICTED)) {
    const values = config[section as keyof ConfigFile] as Record<string, unknown> | undefined;
    if (!values) continue;
    const left: Record<string, unknown> = { ...values };
    for (const key of keys) {
      if (!(key in left)) continue;
      const name = `${section}.${key}`;
      if (HARMLESS_VALUES[name]?.has(left[key])) continue;
      if (name === "store.path" && insideProject(projectRoot, String(left[key]))) continue;
      delete left[key];
      ignored.push(name);
    }
    kept[section] = left;
  }
  const strategies = config.context?.strategies;
  if (strategies?.custom && Object.keys(strategies.custom).length > 0) {
    const names = Object.keys(strategies.custom);
    ignored.push(...names.map((name) => `context.strategies.custom.${name}`));
    const { custom: _custom, ...rest } = strategies;
    // A custom strategy left out cannot run: enabling it would only fail every query.
    const enabled = rest.enabled?.filter((name) => !names.includes(name));
    kept.context = { ...config.context, strategies: { ...rest, ...(enabled ? { enabled } : {}) } };
  }
  return { config: kept as ConfigFile, ignored };
}

/** True for a relative path that stays under the project root (the store's default and its kin). */
function insideProject(projectRoot: string, path: string): boolean {
  if (isAbsolute(path)) return false;
  const rel = relative(projectRoot, resolve(projectRoot, path));
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
