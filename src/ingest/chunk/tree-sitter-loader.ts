import { createRequire } from "node:module";
import { Language, Parser } from "web-tree-sitter";
import { GRAMMARS } from "./languages.js";

const require = createRequire(import.meta.url);

let initialized: Promise<void> | null = null;
const parsers = new Map<string, Promise<Parser>>();

/**
 * The parser for a language with a grammar, or null for languages without one.
 * Grammars are WASM files inside npm packages: nothing is downloaded. Parsers are
 * made once per language and thread and reused (parsing is synchronous).
 */
export function parserFor(language: string): Promise<Parser> | null {
  const spec = GRAMMARS[language];
  if (!spec) return null;
  let parser = parsers.get(language);
  if (!parser) {
    parser = (async () => {
      initialized ??= Parser.init();
      await initialized;
      const loaded = await Language.load(require.resolve(spec.wasm));
      const created = new Parser();
      created.setLanguage(loaded);
      return created;
    })();
    parsers.set(language, parser);
  }
  return parser;
}
