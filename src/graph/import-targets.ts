import { posix } from "node:path";
import type { ImportTarget } from "../core/graph.js";
import { aliasedPaths, type PathAliases } from "./path-aliases.js";

const JS_SOURCE = [".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];
const JS_INDEX = ["index.ts", "index.tsx", "index.js", "index.jsx", "index.mjs"];

/** Paths given here come from posix.join, which normalises them. */
const exact = (path: string): ImportTarget => ({ path, match: "exact" });
const suffix = (path: string): ImportTarget => ({ path, match: "suffix" });
const jsModule = (path: string): ImportTarget => ({ path, match: "module" });
const folder = (path: string): ImportTarget => ({ path, match: "folder" });

/**
 * The files an import may name, most likely first. Relative imports resolve
 * exactly; imports from a source root or a package path match files by the
 * end of their path, which finds the project's own modules wherever its roots
 * are and nothing for packages outside it.
 */
export function importTargets(
  language: string,
  file: string,
  specifier: string,
  names: readonly string[],
  aliases: PathAliases | null = null,
): ImportTarget[] {
  const dir = posix.dirname(file);
  switch (language) {
    case "typescript":
    case "tsx":
    case "javascript":
      if (specifier.startsWith(".")) return jsTargets(posix.join(dir, specifier));
      // A bare specifier is a package unless tsconfig's paths or baseUrl map it into the project.
      return aliases ? aliasedPaths(specifier, aliases).flatMap(jsTargets) : [];
    case "python":
      return pythonTargets(dir, specifier, names);
    case "go":
      return goTargets(specifier);
    case "rust":
      return rustTargets(file, specifier);
    case "java": {
      const parts = specifier.replace(/^static\s+/, "").split(".");
      if (parts[parts.length - 1] === "*") return [folder(parts.slice(0, -1).join("/"))];
      // `import a.b.C.method` (static): the class is the last capitalised part.
      const classAt = parts.findLastIndex((part) => /^[A-Z]/.test(part));
      const upTo = classAt >= 0 ? classAt + 1 : parts.length;
      return [suffix(`${parts.slice(0, upTo).join("/")}.java`)];
    }
    case "c":
    case "cpp":
      return [exact(posix.join(dir, specifier)), suffix(specifier.replace(/^(\.\.?\/)+/, ""))];
    case "csharp": {
      // Namespaces usually mirror folders below the project's root namespace.
      const parts = specifier.split(".");
      return parts.length > 1 ? [folder(parts.slice(1).join("/"))] : [];
    }
    case "ruby":
      return rubyTargets(dir, specifier);
    case "php":
      return phpTargets(dir, specifier);
    default:
      return [];
  }
}

/**
 * One target for the fourteen files a module path may be: listed, they were
 * most of what a JavaScript project's graph handed from the indexing workers
 * to the writer and stored (three.js: 56,000 paths for 4,250 imports).
 */
function jsTargets(base: string): ImportTarget[] {
  return [jsModule(base)];
}

/**
 * The files a module path may be, most likely first: itself (when it has a
 * source extension), then each source extension in place of its own (by
 * TypeScript's ESM convention `./x.js` names x.ts) or added, then its folder's
 * index files.
 */
export function moduleFiles(base: string): string[] {
  const extension = JS_SOURCE.find((ext) => base.endsWith(ext));
  const stem = extension && extension !== ".d.ts" ? base.slice(0, -extension.length) : base;
  const files = extension ? [base] : [];
  for (const ext of JS_SOURCE) files.push(stem + ext);
  for (const index of JS_INDEX) files.push(`${stem}/${index}`);
  return files;
}

function pythonTargets(dir: string, specifier: string, names: readonly string[]): ImportTarget[] {
  const dots = /^\.*/.exec(specifier)?.[0].length ?? 0;
  const modulePath = specifier.slice(dots).split(".").filter(Boolean).join("/");
  const make = (path: string) => {
    if (dots === 0) return suffix(path);
    let base = dir;
    for (let up = 1; up < dots; up++) base = posix.dirname(base);
    return exact(posix.join(base, path));
  };
  const targets: ImportTarget[] = [];
  if (modulePath) targets.push(make(`${modulePath}.py`), make(`${modulePath}/__init__.py`));
  else targets.push(make("__init__.py"));
  // `from pkg import mod` may import a module.
  for (const name of names) targets.push(make(posix.join(modulePath, `${name}.py`)));
  return targets;
}

function goTargets(specifier: string): ImportTarget[] {
  const parts = specifier.split("/");
  // A module path's last two parts find the package folder without knowing the module name.
  return parts.length >= 2 ? [folder(parts.slice(-2).join("/"))] : [folder(specifier)];
}

function rustTargets(file: string, specifier: string): ImportTarget[] {
  const dir = posix.dirname(file);
  if (specifier.startsWith("mod ")) {
    const name = specifier.slice(4);
    const stem = posix.basename(file, ".rs");
    const own = ["mod", "lib", "main"].includes(stem) ? dir : posix.join(dir, stem);
    return [exact(posix.join(own, `${name}.rs`)), exact(posix.join(own, name, "mod.rs"))];
  }
  const parts = specifier
    .replace(/\{.*$/s, "")
    .split("::")
    .map((part) => part.trim())
    .filter((part) => part !== "" && part !== "*");
  const head = parts[0];
  const relative = head === "super" || head === "self";
  const rest = parts.filter((part) => !["crate", "super", "self"].includes(part));
  const base = head === "super" ? posix.dirname(dir) : dir;
  const targets: ImportTarget[] = [];
  for (let length = rest.length; length >= 1; length--) {
    const path = rest.slice(0, length).join("/");
    if (relative) {
      targets.push(exact(posix.join(base, `${path}.rs`)), exact(posix.join(base, path, "mod.rs")));
    } else if (head === "crate" || length < rest.length || rest.length === 1) {
      targets.push(suffix(`${path}.rs`), suffix(`${path}/mod.rs`));
    }
  }
  return targets;
}

/** `require_relative "x"` arrives as `./x`. */
function rubyTargets(dir: string, specifier: string): ImportTarget[] {
  const file = specifier.endsWith(".rb") ? specifier : `${specifier}.rb`;
  return specifier.startsWith(".") ? [exact(posix.join(dir, file))] : [suffix(file)];
}

function phpTargets(dir: string, specifier: string): ImportTarget[] {
  if (specifier.endsWith(".php")) {
    const path = specifier.replace(/^\/+/, "");
    return [exact(posix.join(dir, path)), suffix(path)];
  }
  // `use App\Models\User`: PSR-4 maps the namespace below its root to folders.
  const parts = specifier.replace(/^\\/, "").split("\\");
  return parts.length > 1 ? [suffix(`${parts.slice(1).join("/")}.php`)] : [];
}

/** True when a file path is what the target names. */
export function targetMatches(target: ImportTarget, path: string): boolean {
  switch (target.match) {
    case "exact":
      return path === target.path;
    case "suffix":
      return path === target.path || path.endsWith(`/${target.path}`);
    case "folder": {
      const dir = posix.dirname(path);
      return dir === target.path || dir.endsWith(`/${target.path}`);
    }
    case "module":
      return moduleFiles(target.path).includes(path);
  }
}
