import { folder } from "./import-paths.js";
import {
  type GrammarSpec,
  graphDefinitions,
  type LanguageSupport,
  typeSet,
  VSCODE,
} from "./language.js";

const grammar: GrammarSpec = {
  wasm: `${VSCODE}/tree-sitter-c-sharp.wasm`,
  definitions: {
    namespace_declaration: "namespace",
    file_scoped_namespace_declaration: "namespace",
    class_declaration: "class",
    struct_declaration: "class",
    record_declaration: "class",
    interface_declaration: "interface",
    enum_declaration: "enum",
    method_declaration: "method",
    constructor_declaration: "method",
    property_declaration: "method",
    local_function_statement: "function",
  },
  containers: typeSet(
    "namespace_declaration",
    "class_declaration",
    "struct_declaration",
    "record_declaration",
    "interface_declaration",
  ),
  wrappers: typeSet(),
};

export const csharp: LanguageSupport = {
  name: "csharp",
  extensions: [".cs"],
  grammar,
  graph: {
    // `namespace X;` (C# 10's file-scoped form) is one line that holds nothing: as a
    // definition every `using X` resolved to it, so `ctx map` led with files'
    // `namespace Polly;` lines and `ctx symbols Polly` listed one per file. It still
    // cuts chunks; a block `namespace X { … }` still contains what it declares.
    definitions: graphDefinitions(grammar, { delegate_declaration: "type" }, [
      "file_scoped_namespace_declaration",
    ]),
    identifiers: typeSet("identifier"),
    typeIdentifiers: typeSet(),
    inherits: typeSet("base_list"),
    inheritFields: {},
    typeContexts: typeSet(),
    imports: typeSet("using_directive"),
    declarations: typeSet(),
  },
  readImports: (node) => {
    const name = node.namedChildren.find((child) => /name|identifier/.test(child.type));
    return name ? [{ specifier: name.text, names: [] }] : [];
  },
  importTargets: (_file, specifier) => {
    // Namespaces usually mirror folders below the project's root namespace.
    const parts = specifier.split(".");
    return parts.length > 1 ? [folder(parts.slice(1).join("/"))] : [];
  },
};
