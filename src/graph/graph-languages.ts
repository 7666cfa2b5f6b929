import type { SymbolKind } from "../core/graph.js";

/** How the graph extractor reads one language's syntax tree. */
export interface GraphLanguage {
  /** Node types that define a symbol, and of what kind. */
  readonly definitions: Readonly<Record<string, SymbolKind>>;
  /** Leaf node types that name something; `name(` is a call, `.name` a member. */
  readonly identifiers: ReadonlySet<string>;
  /** Leaf node types that name a type. */
  readonly typeIdentifiers: ReadonlySet<string>;
  /** Node types whose names are inherited (extends and implements clauses). */
  readonly inherits: ReadonlySet<string>;
  /** Fields, by parent node type, that hold inherited names (`class A(B)`: superclasses). */
  readonly inheritFields: Readonly<Record<string, string>>;
  /** Node types inside which names are types (annotations). */
  readonly typeContexts: ReadonlySet<string>;
  /** Statement node types that import something. */
  readonly imports: ReadonlySet<string>;
}

const set = (...types: string[]): ReadonlySet<string> => new Set(types);

const JS: GraphLanguage = {
  definitions: {
    function_declaration: "function",
    generator_function_declaration: "function",
    class_declaration: "class",
    abstract_class_declaration: "class",
    method_definition: "method",
    method_signature: "method",
    abstract_method_signature: "method",
    interface_declaration: "interface",
    type_alias_declaration: "type",
    enum_declaration: "enum",
    internal_module: "namespace",
    module: "namespace",
    // Top-level `const x = …`: a function when its value is one, else a constant (see extractGraph).
    variable_declarator: "constant",
  },
  identifiers: set(
    "identifier",
    "type_identifier",
    "property_identifier",
    "shorthand_property_identifier",
  ),
  typeIdentifiers: set("type_identifier"),
  inherits: set("class_heritage", "extends_clause", "implements_clause", "extends_type_clause"),
  inheritFields: {},
  typeContexts: set("type_annotation"),
  imports: set("import_statement", "export_statement"),
};

const C: GraphLanguage = {
  definitions: {
    function_definition: "function",
    struct_specifier: "type",
    union_specifier: "type",
    enum_specifier: "enum",
    type_definition: "type",
    preproc_function_def: "function",
    preproc_def: "constant",
  },
  identifiers: set("identifier", "type_identifier", "field_identifier"),
  typeIdentifiers: set("type_identifier"),
  inherits: set(),
  inheritFields: {},
  typeContexts: set(),
  imports: set("preproc_include"),
};

/** Graph readers by language name (the chunker's names). */
export const GRAPH_LANGUAGES: Readonly<Record<string, GraphLanguage>> = {
  typescript: JS,
  tsx: JS,
  javascript: JS,
  python: {
    definitions: { function_definition: "function", class_definition: "class" },
    identifiers: set("identifier"),
    typeIdentifiers: set(),
    inherits: set(),
    inheritFields: { class_definition: "superclasses" },
    typeContexts: set("type"),
    imports: set("import_statement", "import_from_statement"),
  },
  go: {
    definitions: {
      function_declaration: "function",
      method_declaration: "method",
      type_spec: "type",
      const_spec: "constant",
    },
    identifiers: set("identifier", "type_identifier", "field_identifier", "package_identifier"),
    typeIdentifiers: set("type_identifier"),
    inherits: set(),
    inheritFields: {},
    typeContexts: set(),
    imports: set("import_spec"),
  },
  rust: {
    definitions: {
      function_item: "function",
      function_signature_item: "function",
      struct_item: "type",
      union_item: "type",
      enum_item: "enum",
      trait_item: "interface",
      impl_item: "impl",
      mod_item: "module",
      macro_definition: "function",
      type_item: "type",
      const_item: "constant",
      static_item: "constant",
    },
    identifiers: set("identifier", "type_identifier", "field_identifier"),
    typeIdentifiers: set("type_identifier"),
    inherits: set("trait_bounds"),
    inheritFields: { impl_item: "trait" },
    typeContexts: set(),
    imports: set("use_declaration", "mod_item"),
  },
  java: {
    definitions: {
      class_declaration: "class",
      record_declaration: "class",
      interface_declaration: "interface",
      annotation_type_declaration: "interface",
      enum_declaration: "enum",
      method_declaration: "method",
      constructor_declaration: "method",
    },
    identifiers: set("identifier", "type_identifier"),
    typeIdentifiers: set("type_identifier"),
    inherits: set("superclass", "super_interfaces", "extends_interfaces"),
    inheritFields: {},
    typeContexts: set(),
    imports: set("import_declaration"),
  },
  c: C,
  cpp: {
    ...C,
    definitions: {
      ...C.definitions,
      class_specifier: "class",
      struct_specifier: "class",
      namespace_definition: "namespace",
      alias_declaration: "type",
    },
    identifiers: set("identifier", "type_identifier", "field_identifier", "namespace_identifier"),
    inherits: set("base_class_clause"),
  },
  csharp: {
    definitions: {
      namespace_declaration: "namespace",
      file_scoped_namespace_declaration: "namespace",
      class_declaration: "class",
      struct_declaration: "class",
      record_declaration: "class",
      interface_declaration: "interface",
      enum_declaration: "enum",
      delegate_declaration: "type",
      method_declaration: "method",
      constructor_declaration: "method",
      property_declaration: "method",
      local_function_statement: "function",
    },
    identifiers: set("identifier"),
    typeIdentifiers: set(),
    inherits: set("base_list"),
    inheritFields: {},
    typeContexts: set(),
    imports: set("using_directive"),
  },
  ruby: {
    definitions: {
      method: "method",
      singleton_method: "method",
      class: "class",
      singleton_class: "class",
      module: "module",
    },
    identifiers: set("identifier", "constant"),
    typeIdentifiers: set(),
    inherits: set("superclass"),
    inheritFields: {},
    typeContexts: set(),
    imports: set("call"),
  },
  php: {
    definitions: {
      function_definition: "function",
      class_declaration: "class",
      interface_declaration: "interface",
      trait_declaration: "class",
      enum_declaration: "enum",
      method_declaration: "method",
    },
    identifiers: set("name"),
    typeIdentifiers: set(),
    inherits: set("base_clause", "class_interface_clause"),
    inheritFields: {},
    typeContexts: set("named_type"),
    imports: set(
      "namespace_use_declaration",
      "require_expression",
      "require_once_expression",
      "include_expression",
      "include_once_expression",
    ),
  },
};
