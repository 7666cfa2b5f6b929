import type { ChunkKind } from "../core/types.js";

/** How the code chunker reads one tree-sitter grammar. */
export interface GrammarSpec {
  /** Module path of the WASM grammar in its package (a devDependency; the build copies it to dist/grammars). */
  readonly wasm: string;
  /** Node types that start a chunk, and what kind of chunk. */
  readonly definitions: Readonly<Record<string, ChunkKind>>;
  /** Definitions whose member definitions become chunks of their own (class → method). */
  readonly containers: ReadonlySet<string>;
  /** Nodes that wrap a definition (export, decorators, templates): the chunk spans the wrapper. */
  readonly wrappers: ReadonlySet<string>;
}

const VSCODE = "@vscode/tree-sitter-wasm/wasm";
const REPOMIX = "@repomix/tree-sitter-wasms/out";

const JS_DEFINITIONS: Record<string, ChunkKind> = {
  function_declaration: "function",
  generator_function_declaration: "function",
  class_declaration: "class",
  abstract_class_declaration: "class",
  method_definition: "method",
  abstract_method_signature: "method",
  interface_declaration: "interface",
  type_alias_declaration: "type",
  enum_declaration: "enum",
  internal_module: "namespace",
  module: "namespace",
  // `const f = () => …` counts as a function when its value is one (see definitionOf).
  lexical_declaration: "function",
  variable_declaration: "function",
};
const JS_CONTAINERS = new Set([
  "class_declaration",
  "abstract_class_declaration",
  "class",
  "internal_module",
  "module",
]);
const JS_WRAPPERS = new Set(["export_statement", "expression_statement"]);

const typescript: GrammarSpec = {
  wasm: `${VSCODE}/tree-sitter-typescript.wasm`,
  definitions: JS_DEFINITIONS,
  containers: JS_CONTAINERS,
  wrappers: JS_WRAPPERS,
};

const C_FAMILY_CONTAINERS = new Set([
  "class_specifier",
  "struct_specifier",
  "namespace_definition",
]);

/** Grammars by language name. */
export const GRAMMARS: Readonly<Record<string, GrammarSpec>> = {
  typescript,
  tsx: { ...typescript, wasm: `${VSCODE}/tree-sitter-tsx.wasm` },
  javascript: { ...typescript, wasm: `${VSCODE}/tree-sitter-javascript.wasm` },
  python: {
    wasm: `${VSCODE}/tree-sitter-python.wasm`,
    definitions: { function_definition: "function", class_definition: "class" },
    containers: new Set(["class_definition"]),
    wrappers: new Set(["decorated_definition"]),
  },
  go: {
    wasm: `${VSCODE}/tree-sitter-go.wasm`,
    definitions: {
      function_declaration: "function",
      method_declaration: "method",
      type_declaration: "type",
    },
    containers: new Set(),
    wrappers: new Set(),
  },
  rust: {
    wasm: `${VSCODE}/tree-sitter-rust.wasm`,
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
    },
    containers: new Set(["impl_item", "trait_item", "mod_item"]),
    wrappers: new Set(),
  },
  java: {
    wasm: `${VSCODE}/tree-sitter-java.wasm`,
    definitions: {
      class_declaration: "class",
      interface_declaration: "interface",
      enum_declaration: "enum",
      record_declaration: "class",
      annotation_type_declaration: "interface",
      method_declaration: "method",
      constructor_declaration: "method",
    },
    containers: new Set([
      "class_declaration",
      "interface_declaration",
      "enum_declaration",
      "record_declaration",
    ]),
    wrappers: new Set(),
  },
  c: {
    wasm: `${REPOMIX}/tree-sitter-c.wasm`,
    definitions: {
      function_definition: "function",
      struct_specifier: "type",
      union_specifier: "type",
      enum_specifier: "enum",
      type_definition: "type",
    },
    containers: new Set(),
    wrappers: new Set(),
  },
  cpp: {
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
    containers: C_FAMILY_CONTAINERS,
    wrappers: new Set(["template_declaration"]),
  },
  csharp: {
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
    containers: new Set([
      "namespace_declaration",
      "class_declaration",
      "struct_declaration",
      "record_declaration",
      "interface_declaration",
    ]),
    wrappers: new Set(),
  },
  ruby: {
    wasm: `${VSCODE}/tree-sitter-ruby.wasm`,
    definitions: {
      method: "method",
      singleton_method: "method",
      class: "class",
      singleton_class: "class",
      module: "module",
    },
    containers: new Set(["class", "singleton_class", "module"]),
    wrappers: new Set(),
  },
  php: {
    wasm: `${VSCODE}/tree-sitter-php.wasm`,
    definitions: {
      function_definition: "function",
      class_declaration: "class",
      interface_declaration: "interface",
      trait_declaration: "class",
      enum_declaration: "enum",
      method_declaration: "method",
    },
    containers: new Set([
      "class_declaration",
      "interface_declaration",
      "trait_declaration",
      "enum_declaration",
    ]),
    wrappers: new Set(),
  },
};

/** Language by lower-cased file extension; code languages here have grammars in GRAMMARS. */
const LANGUAGE_BY_EXTENSION: Readonly<Record<string, string>> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascript",
  ".py": "python",
  ".pyi": "python",
  ".go": "go",
  ".rs": "rust",
  ".java": "java",
  ".c": "c",
  ".h": "c",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".hpp": "cpp",
  ".hh": "cpp",
  ".hxx": "cpp",
  ".cs": "csharp",
  ".rb": "ruby",
  ".php": "php",
  ".md": "markdown",
  ".mdx": "markdown",
  ".markdown": "markdown",
  ".json": "json",
  ".jsonc": "json",
  ".yaml": "yaml",
  ".yml": "yaml",
  ".toml": "toml",
  ".html": "html",
  ".htm": "html",
  ".css": "css",
  ".scss": "scss",
  ".sh": "bash",
  ".bash": "bash",
  ".sql": "sql",
  ".xml": "xml",
  ".kt": "kotlin",
  ".swift": "swift",
  ".scala": "scala",
  ".lua": "lua",
  ".r": "r",
  ".glsl": "glsl",
  ".vue": "vue",
  ".svelte": "svelte",
  ".txt": "text",
};

/** The language of a file, from its extension; "text" when unknown. */
export function languageOf(relPath: string, content?: string): string {
  const name = relPath.slice(relPath.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return "text";
  const language = LANGUAGE_BY_EXTENSION[name.slice(dot).toLowerCase()] ?? "text";
  // `.h` is C's and C++'s header: read as C, a C++ class is a syntax error and its methods go unseen.
  if (language === "c" && content !== undefined && CPP_HEADER.test(content)) return "cpp";
  return language;
}

/**
 * What only C++ writes at the start of a line (a class, namespace or template, an
 * access label) or anywhere (`std::`, a standard header without `.h`).
 */
const CPP_HEADER =
  /^[ \t]*(?:class[ \t]+\w+[^;\n]*(?:\{|$)|namespace\b|template[ \t]*<|(?:public|private|protected)[ \t]*:)|\bstd::|^[ \t]*#[ \t]*include[ \t]*<[a-z_]+>/m;
