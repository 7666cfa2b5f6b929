import { posix } from "node:path";
import type { Node } from "web-tree-sitter";
import type { ImportTarget } from "../core/graph.js";

/** Paths given here come from posix.join, which normalises them. */
export const exact = (path: string): ImportTarget => ({ path, match: "exact" });
export const suffix = (path: string): ImportTarget => ({ path, match: "suffix" });
export const jsModule = (path: string): ImportTarget => ({ path, match: "module" });
export const folder = (path: string): ImportTarget => ({ path, match: "folder" });

const JS_SOURCE = [".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];
const JS_INDEX = ["index.ts", "index.tsx", "index.js", "index.jsx", "index.mjs"];
/** Files a JavaScript module path may name as they are, besides the source extensions. */
const JS_COMPONENTS = [".vue", ".svelte"];

/**
 * The files a module path may be, most likely first: itself (when it has a
 * source extension or is a component), then each source extension in place of
 * its own (by TypeScript's ESM convention `./x.js` names x.ts) or added, then
 * its folder's index files.
 */
export function moduleFiles(base: string): string[] {
  if (JS_COMPONENTS.some((ext) => base.endsWith(ext))) return [base];
  const extension = JS_SOURCE.find((ext) => base.endsWith(ext));
  const stem = extension && extension !== ".d.ts" ? base.slice(0, -extension.length) : base;
  const files = extension ? [base] : [];
  for (const ext of JS_SOURCE) files.push(stem + ext);
  for (const index of JS_INDEX) files.push(`${stem}/${index}`);
  return files;
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

/** The text of a string literal without its quotes. */
export function unquote(text: string): string {
  return text.replace(/^[@]?["'`<]|["'`>]$/g, "");
}

/** The first string literal in a node, unquoted; null when it holds none. */
export function stringIn(node: Node | null): string | null {
  if (!node) return null;
  if (/string|interpreted_string_literal|system_lib_string/.test(node.type))
    return unquote(node.text);
  for (const child of node.namedChildren) {
    const found = stringIn(child);
    if (found !== null) return found;
  }
  return null;
}

/** The texts of the nodes of the given types inside a node, in document order. */
export function namesIn(node: Node | null, types: ReadonlySet<string>): string[] {
  if (!node) return [];
  const names: string[] = [];
  const walk = (current: Node) => {
    if (types.has(current.type)) names.push(current.text);
    for (const child of current.namedChildren) walk(child);
  };
  walk(node);
  return names;
}
