import { C_GRAPH, cIncludes } from "./c.js";
import {
  type GrammarSpec,
  graphDefinitions,
  type LanguageSupport,
  typeSet,
  VSCODE,
} from "./language.js";

const grammar: GrammarSpec = {
  wasm: `${VSCODE}/tree-sitter-cpp.wasm`,
  definitions: {
    function_definition: "function",
    class_specifier: "class",
    struct_specifier: "class",
    union_specifier: "type",
    enum_specifier: "enum",
    namespace_definition: "namespace",
    type_definition: "type",
    alias_declaration: "type",
  },
  containers: typeSet("class_specifier", "struct_specifier", "namespace_definition"),
  wrappers: typeSet("template_declaration"),
};

export const cpp: LanguageSupport = {
  name: "cpp",
  family: "c",
  extensions: [".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"],
  grammar,
  graph: {
    ...C_GRAPH,
    definitions: graphDefinitions(grammar, {
      preproc_function_def: "function",
      preproc_def: "constant",
    }),
    identifiers: typeSet(
      "identifier",
      "type_identifier",
      "field_identifier",
      "namespace_identifier",
    ),
    inherits: typeSet("base_class_clause"),
  },
  ...cIncludes,
  qualifiedNames: /::/g,
};
