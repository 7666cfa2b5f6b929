import { readFileSync } from "node:fs";
import { posix } from "node:path";

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

/** The aliases of the first of tsconfig.json and jsconfig.json at the root that sets any; null otherwise. */
export function readPathAliases(root: string): PathAliases | null {
  for (const name of ["tsconfig.json", "jsconfig.json"]) {
    let config: unknown;
    try {
      config = parseJsonc(readFileSync(`${root}/${name}`, "utf8"));
    } catch {
      continue; // absent or unreadable: imports then resolve by relative path only
    }
    const options = (config as { compilerOptions?: { baseUrl?: unknown; paths?: unknown } })
      ?.compilerOptions;
    const baseUrl = typeof options?.baseUrl === "string" ? posix.normalize(options.baseUrl) : null;
    // `paths` are relative to baseUrl, or to the config's folder without one.
    const from = baseUrl ?? ".";
    const paths: [string, string[]][] = [];
    if (options?.paths && typeof options.paths === "object") {
      for (const [pattern, targets] of Object.entries(options.paths as Record<string, unknown>)) {
        if (!Array.isArray(targets)) continue;
        const folders = targets
          .filter((target): target is string => typeof target === "string")
          .map((target) => posix.join(from, target));
        if (folders.length > 0) paths.push([pattern, folders]);
      }
    }
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
