import { posix } from "node:path";
import type { Node } from "web-tree-sitter";
import type { ImportTarget } from "../core/graph.js";
import { exact, stringIn, suffix } from "./import-paths.js";
import {
  type GrammarSpec,
  graphDefinitions,
  type ImportStatement,
  type LanguageSupport,
  typeSet,
  VSCODE,
} from "./language.js";

const grammar: GrammarSpec = {
  wasm: `${VSCODE}/tree-sitter-php.wasm`,
  definitions: {
    function_definition: "function",
    class_declaration: "class",
    interface_declaration: "interface",
    trait_declaration: "class",
    enum_declaration: "enum",
    method_declaration: "method",
  },
  containers: typeSet(
    "class_declaration",
    "interface_declaration",
    "trait_declaration",
    "enum_declaration",
  ),
  wrappers: typeSet(),
};

function readImports(node: Node): ImportStatement[] {
  if (node.type === "namespace_use_declaration") {
    return node.namedChildren
      .filter((child) => child.type === "namespace_use_clause")
      .map((clause) => {
        const name = clause.namedChildren.find((child) => /name/.test(child.type));
        return { specifier: name?.text ?? "", names: [name?.text.split("\\").pop() ?? ""] };
      })
      .filter((statement) => statement.specifier !== "");
  }
  const path = stringIn(node);
  return path ? [{ specifier: path, names: [] }] : [];
}

function importTargets(file: string, specifier: string): ImportTarget[] {
  if (specifier.endsWith(".php")) {
    const path = specifier.replace(/^\/+/, "");
    return [exact(posix.join(posix.dirname(file), path)), suffix(path)];
  }
  // `use App\Models\User`: PSR-4 maps the namespace below its root to folders.
  const parts = specifier.replace(/^\\/, "").split("\\");
  return parts.length > 1 ? [suffix(`${parts.slice(1).join("/")}.php`)] : [];
}

export const php: LanguageSupport = {
  name: "php",
  extensions: [".php"],
  interpreters: ["php"],
  editorModes: ["php"],
  grammar,
  graph: {
    definitions: graphDefinitions(grammar),
    identifiers: typeSet("name"),
    typeIdentifiers: typeSet(),
    inherits: typeSet("base_clause", "class_interface_clause"),
    inheritFields: {},
    typeContexts: typeSet("named_type"),
    imports: typeSet(
      "namespace_use_declaration",
      "require_expression",
      "require_once_expression",
      "include_expression",
      "include_once_expression",
    ),
    declarations: typeSet(),
  },
  readImports,
  importTargets,
};
