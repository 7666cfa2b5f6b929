import { posix } from "node:path";
import {
  CONFIG_FILE_MAX_BYTES,
  readRegularText,
  warnSkippedFile,
} from "../core/read-regular-file.js";

/**
 * A root's module aliases from its tsconfig.json (or jsconfig.json):
 * `compilerOptions.baseUrl` and `compilerOptions.paths`, with every folder made
 * relative to the root, so imports like `@app/util` name the project's files.
 */
export interface PathAliases {
  /** Folder bare specifiers are also looked up in; null without baseUrl. */
  readonly baseUrl: string | null;
  /** Patterns with at most one `*`, and the folders or files they map to. */
  readonly paths: readonly (readonly [pattern: string, targets: readonly string[]])[];
}

/** JSON with comments and trailing commas, as tsconfig files are written. */
function parseJsonc(text: string): unknown {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      out += text.slice(start, i + 1);
    } else if (char === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (char === "/" && text[i + 1] === "*") {
      i = text.indexOf("*/", i + 2);
      if (i < 0) break;
      i++;
    } else {
      out += char;
    }
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1"));
}

interface CompilerPaths {
  /** Relative to the root. */
  baseUrl?: string;
  /** Targets relative to the root. */
  paths?: [string, string[]][];
}

/** Configs followed through `extends` (a base of a base…). */
const MAX_EXTENDS = 5;

/**
 * baseUrl and paths of the config at `file` (relative to the root), after the
 * configs it extends by relative path (later ones, then the file itself, win);
 * each config's folders are relative to that config's own folder. Null when
 * the file cannot be read or lies outside the root (a base named by `extends`
 * included); package bases (`@tsconfig/node20`) are not followed.
 */
function readCompilerPaths(root: string, file: string, depth = 0): CompilerPaths | null {
  let config: { extends?: unknown; compilerOptions?: { baseUrl?: unknown; paths?: unknown } };
  const path = `${root}/${file}`;
  // Only a regular file inside the root: a FIFO or /dev/zero link here must not hang indexing.
  const read = readRegularText(path, { maxBytes: CONFIG_FILE_MAX_BYTES, root });
  if (!read.ok) {
    // A base outside the root is common in a monorepo's package (and its folders would
    // lie outside the root anyway): left out without a word. Anything else is said once.
    if (!(depth > 0 && read.reason === "outside-root")) warnSkippedFile(path, read);
    return null; // imports then resolve by relative path only
  }
  try {
    config = parseJsonc(read.text) as typeof config;
  } catch {
    return null; // not JSON: as if absent
  }
  const dir = posix.dirname(file);
  const merged: CompilerPaths = {};
  const bases = Array.isArray(config?.extends) ? config.extends : [config?.extends];
  for (const base of bases) {
    if (typeof base !== "string" || !base.startsWith(".") || depth >= MAX_EXTENDS) continue;
    const named = posix.join(dir, base);
    const inherited = readCompilerPaths(
      root,
      named.endsWith(".json") ? named : `${named}.json`,
      depth + 1,
    );
    if (inherited?.baseUrl !== undefined) merged.baseUrl = inherited.baseUrl;
    if (inherited?.paths !== undefined) merged.paths = inherited.paths;
  }
  const options = config?.compilerOptions;
  if (typeof options?.baseUrl === "string") merged.baseUrl = posix.join(dir, options.baseUrl);
  if (options?.paths && typeof options.paths === "object") {
    // `paths` are relative to baseUrl, or to the config's folder without one.
    const from = merged.baseUrl ?? dir;
    merged.paths = [];
    for (const [pattern, targets] of Object.entries(options.paths as Record<string, unknown>)) {
      if (!Array.isArray(targets)) continue;
      const folders = targets
        .filter((target): target is string => typeof target === "string")
        .map((target) => posix.join(from, target));
      if (folders.length > 0) merged.paths.push([pattern, folders]);
    }
  }
  return merged;
}

/** The aliases of the first of tsconfig.json and jsconfig.json at the root that sets any; null otherwise. */
export function readPathAliases(root: string): PathAliases | null {
  for (const name of ["tsconfig.json", "jsconfig.json"]) {
    const found = readCompilerPaths(root, name);
    if (!found) continue;
    const baseUrl = found.baseUrl !== undefined ? posix.normalize(found.baseUrl) : null;
    const paths = found.paths ?? [];
    if (baseUrl !== null || paths.length > 0) return { baseUrl, paths };
  }
  return null;
}

/** Where a bare specifier leads through the aliases: paths patterns first, then baseUrl. */
export function aliasedPaths(specifier: string, aliases: PathAliases): string[] {
  const found: string[] = [];
  for (const [pattern, targets] of aliases.paths) {
    const star = pattern.indexOf("*");
    if (star < 0) {
      if (pattern === specifier) found.push(...targets);
      continue;
    }
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    if (
      specifier.length >= prefix.length + suffix.length &&
      specifier.startsWith(prefix) &&
      specifier.endsWith(suffix)
    ) {
      const matched = specifier.slice(prefix.length, specifier.length - suffix.length);
      found.push(...targets.map((target) => target.replace("*", matched)));
    }
  }
  if (aliases.baseUrl !== null) found.push(posix.join(aliases.baseUrl, specifier));
  return found.map((path) => posix.normalize(path));
}
