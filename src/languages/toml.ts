import { type LanguageSupport, typeSet, VENDORED } from "./language.js";
import { childText } from "./node-names.js";

const KEYS = typeSet("bare_key", "dotted_key", "quoted_key");

/** TOML: cut at its tables (`[server]`, `[[plugins]]`). */
export const toml: LanguageSupport = {
  name: "toml",
  extensions: [".toml"],
  grammar: {
    wasm: `${VENDORED}/tree-sitter-toml.wasm`,
    definitions: { table: "section", table_array_element: "section" },
    containers: typeSet(),
    wrappers: typeSet(),
    classify: (node, kind) => ({ kind, name: childText(node, KEYS) }),
  },
  hashComments: true,
};
