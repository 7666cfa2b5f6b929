import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Language, Parser } from "web-tree-sitter";
import { GRAMMARS } from "./languages.js";
import { enableNodeSearch } from "./node-search.js";
import { shortcutTransfers } from "./wasm-transfers.js";

const require = createRequire(import.meta.url);

/** Where `npm run build` copies the grammars (dist/grammars): an installed ctx has no grammar package. */
export const BUNDLED_GRAMMARS = fileURLToPath(new URL("../grammars", import.meta.url));

/** The grammar file: the copy the build made, or (running from sources) the package's own. */
function grammarFile(wasm: string): string {
  const bundled = join(BUNDLED_GRAMMARS, basename(wasm));
  return existsSync(bundled) ? bundled : require.resolve(wasm);
}

/**
 * The web-tree-sitter releases the two shortcuts (node-search.ts,
 * wasm-transfers.ts) were checked against: they use the library's private
 * WebAssembly functions, which any release may change. With another release,
 * or with `CTX_PARSER_SHORTCUTS=0`, the library's own paths run.
 */
const SHORTCUT_RELEASES = /^0\.27\./;

/** Whether the parser shortcuts may be taken with web-tree-sitter `version` (default: the installed one). */
export function parserShortcutsAllowed(version = installedTreeSitter()): boolean {
  return SHORTCUT_RELEASES.test(version) && process.env.CTX_PARSER_SHORTCUTS !== "0";
}

/** The installed release, read from the package.json beside its entry (the package does not export it). */
function installedTreeSitter(): string {
  try {
    const manifest = join(dirname(require.resolve("web-tree-sitter")), "package.json");
    const { name, version } = JSON.parse(readFileSync(manifest, "utf8")) as {
      name?: string;
      version?: string;
    };
    return name === "web-tree-sitter" && typeof version === "string" ? version : "";
  } catch {
    return "";
  }
}

let initialized: Promise<boolean> | null = null;
const parsers = new Map<string, Promise<Parser>>();

/**
 * Starts web-tree-sitter once per thread, with the code graph's node search
 * (node-search.ts) where the release allows; resolves to whether the shortcuts
 * are in place (node search and the transfers of wasm-transfers.ts).
 */
export function initializeTreeSitter(): Promise<boolean> {
  initialized ??= (async () => {
    // An abort is reported as an error naming the file (chunk-document.ts), not as
    // emscripten's bare "Aborted()" line; anything else it prints still shows.
    const module: Record<string, unknown> = {
      printErr: (line: string) => {
        if (!line.startsWith("Aborted(")) process.stderr.write(`${line}\n`);
      },
    };
    await Parser.init(module);
    if (!parserShortcutsAllowed()) return false;
    enableNodeSearch(module);
    return shortcutTransfers(module);
  })();
  return initialized;
}

/**
 * The parser for a language with a grammar, or null for languages without one.
 * Grammars are WASM files from npm packages, copied into dist at build time: nothing is downloaded. Parsers are
 * made once per language and thread and reused (parsing is synchronous).
 */
export function parserFor(language: string): Promise<Parser> | null {
  const spec = GRAMMARS[language];
  if (!spec) return null;
  let parser = parsers.get(language);
  if (!parser) {
    parser = (async () => {
      await initializeTreeSitter();
      const loaded = await Language.load(grammarFile(spec.wasm));
      const created = new Parser();
      created.setLanguage(loaded);
      return created;
    })();
    parsers.set(language, parser);
  }
  return parser;
}
