import type { SymbolKind } from "../core/graph.js";
import { GRAMMARS } from "../parse/languages.js";

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
  /**
   * Node types that declare a name without defining it (a C prototype, a C++
   * method declared in its class body and defined elsewhere): the name is
   * neither a definition nor a use.
   */
  readonly declarations: ReadonlySet<string>;
}

const set = (...types: string[]): ReadonlySet<string> => new Set(types);

/**
 * The chunker's definitions of a language (its kinds are symbol kinds), with
 * the graph's additions, less the node types the graph reads another way.
 */
function chunkerDefinitions(
  language: string,
  extra: Readonly<Record<string, SymbolKind>> = {},
  omit: readonly string[] = [],
): Readonly<Record<string, SymbolKind>> {
  const own = { ...(GRAMMARS[language]?.definitions as Record<string, SymbolKind>), ...extra };
  for (const type of omit) delete own[type];
  return own;
}

const JS: GraphLanguage = {
  // Top-level `const x = …`: a function when its value is one, else a constant (see extractGraph);
  // a class field is a method when its value is a function (`text = (s) => …`), else not a definition.
  definitions: chunkerDefinitions(
    "typescript",
    {
      method_signature: "method",
      variable_declarator: "constant",
      public_field_definition: "method",
      field_definition: "method",
      // `declare function f(): void;` and overloads; an overload gives way to its implementation.
      function_signature: "function",
    },
    ["lexical_declaration", "variable_declaration"],
  ),
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
  declarations: set(),
};

const C: GraphLanguage = {
  definitions: chunkerDefinitions("c", {
    preproc_function_def: "function",
    preproc_def: "constant",
  }),
  identifiers: set("identifier", "type_identifier", "field_identifier"),
  typeIdentifiers: set("type_identifier"),
  inherits: set(),
  inheritFields: {},
  typeContexts: set(),
  imports: set("preproc_include"),
  declarations: set("declaration", "field_declaration"),
};

/** Graph readers by language name (the chunker's names). */
export const GRAPH_LANGUAGES: Readonly<Record<string, GraphLanguage>> = {
  typescript: JS,
  tsx: JS,
  javascript: JS,
  python: {
    definitions: chunkerDefinitions("python"),
    identifiers: set("identifier"),
    typeIdentifiers: set(),
    inherits: set(),
    inheritFields: { class_definition: "superclasses" },
    typeContexts: set("type"),
    imports: set("import_statement", "import_from_statement"),
    declarations: set(),
  },
  go: {
    definitions: {
      function_declaration: "function",
      method_declaration: "method",
      // A method an interface type asks for (`Area() float64`).
      method_elem: "method",
      type_spec: "type",
      const_spec: "constant",
    },
    identifiers: set("identifier", "type_identifier", "field_identifier", "package_identifier"),
    typeIdentifiers: set("type_identifier"),
    inherits: set(),
    inheritFields: {},
    typeContexts: set(),
    imports: set("import_spec"),
    declarations: set(),
  },
  rust: {
    definitions: chunkerDefinitions("rust", { const_item: "constant", static_item: "constant" }),
    identifiers: set("identifier", "type_identifier", "field_identifier"),
    typeIdentifiers: set("type_identifier"),
    inherits: set("trait_bounds"),
    inheritFields: { impl_item: "trait" },
    typeContexts: set(),
    imports: set("use_declaration", "mod_item"),
    declarations: set(),
  },
  java: {
    definitions: chunkerDefinitions("java"),
    identifiers: set("identifier", "type_identifier"),
    typeIdentifiers: set("type_identifier"),
    inherits: set("superclass", "super_interfaces", "extends_interfaces"),
    inheritFields: {},
    typeContexts: set(),
    imports: set("import_declaration"),
    declarations: set(),
  },
  c: C,
  cpp: {
    ...C,
    definitions: chunkerDefinitions("cpp", {
      preproc_function_def: "function",
      preproc_def: "constant",
    }),
    identifiers: set("identifier", "type_identifier", "field_identifier", "namespace_identifier"),
    inherits: set("base_class_clause"),
  },
  csharp: {
    definitions: chunkerDefinitions("csharp", { delegate_declaration: "type" }),
    identifiers: set("identifier"),
    typeIdentifiers: set(),
    inherits: set("base_list"),
    inheritFields: {},
    typeContexts: set(),
    imports: set("using_directive"),
    declarations: set(),
  },
  ruby: {
    definitions: chunkerDefinitions("ruby"),
    identifiers: set("identifier", "constant"),
    typeIdentifiers: set(),
    inherits: set("superclass"),
    inheritFields: {},
    typeContexts: set(),
    imports: set("call"),
    declarations: set(),
  },
  php: {
    definitions: chunkerDefinitions("php"),
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
    declarations: set(),
  },
};

/**
 * Languages whose files see another file's names only through an import that
 * names the file: a use elsewhere is some other thing of the same name.
 */
export const IMPORT_SCOPED_LANGUAGES: ReadonlySet<string> = new Set([
  "typescript",
  "tsx",
  "javascript",
  "python",
]);
