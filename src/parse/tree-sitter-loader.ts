import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Language, Parser } from "web-tree-sitter";
import { VENDORED } from "../languages/language.js";
import { GRAMMARS } from "../languages/registry.js";
import { enableNodeSearch } from "./node-search.js";
import { shortcutTransfers } from "./wasm-transfers.js";

const require = createRequire(import.meta.url);

/** Where `npm run build` copies the grammars (dist/grammars): an installed ctx has no grammar package. */
export const BUNDLED_GRAMMARS = fileURLToPath(new URL("../grammars", import.meta.url));

/**
 * The grammar file: the copy the build made, or (running from sources) the
 * package's own or the repository's (grammars/, two folders above this one).
 */
function grammarFile(wasm: string): string {
  const bundled = join(BUNDLED_GRAMMARS, basename(wasm));
  if (existsSync(bundled)) return bundled;
  return wasm.startsWith(`${VENDORED}/`)
    ? fileURLToPath(new URL(`../../${wasm}`, import.meta.url))
    : require.resolve(wasm);
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
const parsers = new Map<string, Promise<Parser | null>>();

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

const failures = new Map<string, string>();

/**
 * The parser for a language with a grammar, or null for languages without one.
 * Grammars are WASM files from npm packages, copied into dist at build time:
 * nothing is downloaded. Parsers are made once per language and thread and
 * reused (parsing is synchronous). A grammar that does not load resolves to
 * null after one warning: its files are cut in line windows.
 */
export function parserFor(language: string): Promise<Parser | null> | null {
  const spec = GRAMMARS[language];
  if (!spec) return null;
  let parser = parsers.get(language);
  if (!parser) {
    parser = (async () => {
      await initializeTreeSitter();
      try {
        const loaded = await Language.load(grammarFile(spec.wasm));
        const created = new Parser();
        created.setLanguage(loaded);
        return created;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        failures.set(language, reason);
        process.stderr.write(
          `ctx: the ${language} grammar (${basename(spec.wasm)}) did not load: ${reason.split("\n")[0]}; its files are cut in line windows (reinstall ctx to restore it)\n`,
        );
        return null;
      }
    })();
    parsers.set(language, parser);
  }
  return parser;
}

/** Why a language's grammar did not load in this thread, or undefined when it loaded or was not tried. */
export function grammarFailure(language: string): string | undefined {
  return failures.get(language);
}
