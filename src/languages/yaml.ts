import type { Node } from "web-tree-sitter";
import { type LanguageSupport, typeSet, VENDORED } from "./language.js";

/** The first mapping in or below a node: a document's top-level keys, a key's nested keys; null for a scalar or a list. */
function firstMapping(node: Node | null): Node | null {
  let current = node;
  for (let depth = 0; current && depth < 4; depth++) {
    if (current.type === "block_mapping") return current;
    current =
      current.namedChildren.find((child) =>
        ["document", "block_node", "block_mapping"].includes(child.type),
      ) ?? null;
  }
  return null;
}

/** YAML: cut at its keys, nested keys inside their parent's chunk where they fit. */
export const yaml: LanguageSupport = {
  name: "yaml",
  extensions: [".yaml", ".yml"],
  grammar: {
    wasm: `${VENDORED}/tree-sitter-yaml.wasm`,
    definitions: { block_mapping_pair: "section" },
    containers: typeSet("block_mapping_pair"),
    wrappers: typeSet(),
    classify: (node, kind) => ({ kind, name: node.childForFieldName("key")?.text ?? "" }),
    bodyOf: (node) => firstMapping(node.childForFieldName("value")),
    topLevel: (root) => firstMapping(root),
  },
  hashComments: true,
};
