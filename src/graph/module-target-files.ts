import { moduleFiles } from "../languages/import-paths.js";

/** A module path ending in a source extension, which `moduleFiles` tries first. */
const JS_EXTENSION = /\.(?:ts|tsx|js|jsx|mjs|cjs|mts|cts)$/;
/** What a declaration file's module is written in, most likely first. */
const DECLARED_EXTENSIONS = [".js", ".mjs", ".cjs", ".jsx"];
const JAVASCRIPT_EXTENSION = /\.(?:js|mjs|cjs|jsx)$/;

/**
 * The files a JavaScript module path names (`./util`, `./util.js`): the first
 * of its files the project has, and with a declaration file the JavaScript it
 * describes (`index.d.ts` beside `index.js`), as an import of the module reads
 * its types from the one and runs the other. `byPath`: files by relative path.
 */
export function moduleTargetFiles(
  modulePath: string,
  byPath: ReadonlyMap<string, readonly number[]>,
): number[] {
  // Most imports name their file with its extension, the first of the files tried.
  const named = JS_EXTENSION.test(modulePath) ? byPath.get(modulePath) : undefined;
  if (named && named.length > 0) {
    const declaration = JAVASCRIPT_EXTENSION.test(modulePath)
      ? byPath.get(modulePath.replace(JAVASCRIPT_EXTENSION, ".d.ts"))
      : undefined;
    return declaration ? [...named, ...declaration] : [...named];
  }
  // The first of its files the project has, as the separate targets it stands for gave.
  for (const path of moduleFiles(modulePath)) {
    const found = byPath.get(path);
    if (found && found.length > 0)
      return path.endsWith(".d.ts") ? [...found, ...declaredModule(path, byPath)] : [...found];
  }
  return [];
}

/** The JavaScript a declaration file describes, if the project has it. */
function declaredModule(
  declaration: string,
  byPath: ReadonlyMap<string, readonly number[]>,
): readonly number[] {
  const stem = declaration.slice(0, -".d.ts".length);
  for (const extension of DECLARED_EXTENSIONS) {
    const found = byPath.get(stem + extension);
    if (found && found.length > 0) return found;
  }
  return [];
}
