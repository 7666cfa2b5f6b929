import { posix } from "node:path";
import type { Node } from "web-tree-sitter";
import type { ChunkKind } from "../core/types.js";
import { jsModule, namesIn, unquote } from "./import-paths.js";
import { JAVASCRIPT_TOP_LEVEL } from "./javascript-modules.js";
import {
  type GrammarSpec,
  type GraphRules,
  graphDefinitions,
  type ImportStatement,
  type LanguageSupport,
  typeSet,
  VSCODE,
} from "./language.js";
import { aliasedPaths } from "./path-aliases.js";

/** TypeScript, TSX and JavaScript: one reader, three grammars. */

const DEFINITIONS: Record<string, ChunkKind> = {
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
  // `exports.f = function …`, `res.send = function send …`, when the value is a function or class.
  assignment_expression: "function",
};

const VALUE_HOLDERS = new Set([
  "variable_declarator",
  "public_field_definition",
  "field_definition",
]);

/**
 * `const f = (a) => { … }` (or a class field `f = (a) => { … }`) stops before
 * the braces, as `function f(a)` does; a one-line `const double = (x) => x * 2`
 * is all signature.
 */
function declaredFunctionBody(node: Node): Node | null {
  if (!VALUE_HOLDERS.has(node.type)) return null;
  const body = node.childForFieldName("value")?.childForFieldName("body") ?? null;
  if (!body || (body.type !== "statement_block" && node.startPosition.row === node.endPosition.row))
    return null;
  return body;
}

const grammar: GrammarSpec = {
  wasm: `${VSCODE}/tree-sitter-typescript.wasm`,
  definitions: DEFINITIONS,
  containers: typeSet(
    "class_declaration",
    "abstract_class_declaration",
    "class",
    "internal_module",
    "module",
  ),
  wrappers: typeSet("export_statement", "expression_statement"),
  bodyOf: declaredFunctionBody,
};

const graph: GraphRules = {
  // Top-level `const x = …`: a function when its value is one, else a constant (see extractGraph);
  // a class field is a method when its value is a function (`text = (s) => …`), else not a definition.
  definitions: graphDefinitions(
    grammar,
    {
      method_signature: "method",
      variable_declarator: "constant",
      public_field_definition: "method",
      field_definition: "method",
      // `declare function f(): void;` and overloads; an overload gives way to its implementation.
      function_signature: "function",
      // `exports.f = function …`, `X.prototype.f = …`, `Object.defineProperty(X, "f", …)`.
      assignment_expression: "method",
      "Object.defineProperty": "method",
    },
    ["lexical_declaration", "variable_declaration"],
  ),
  identifiers: typeSet(
    "identifier",
    "type_identifier",
    "property_identifier",
    "shorthand_property_identifier",
  ),
  typeIdentifiers: typeSet("type_identifier"),
  inherits: typeSet("class_heritage", "extends_clause", "implements_clause", "extends_type_clause"),
  inheritFields: {},
  typeContexts: typeSet("type_annotation"),
  // `import` also finds `import("./x")` calls (and the keyword of every import statement,
  // read with its statement); a comment may hold a doc comment's `import("./types").T`.
  imports: typeSet("import_statement", "export_statement", "import", "comment"),
  declarations: typeSet(),
  topLevel: JAVASCRIPT_TOP_LEVEL,
};

const JS_NAMES = typeSet("identifier");

/**
 * The names a `require` call brings in: `f` of `require("./x").f`, `a` and
 * `b` of `const { a, b } = require("./x")`, `x` of `const x = require("./x")`.
 */
function requiredNames(call: Node): string[] {
  const parent = call.parent;
  if (parent?.type === "member_expression") {
    const property = parent.childForFieldName("property");
    return property?.type === "property_identifier" ? [property.text] : [];
  }
  if (parent?.type !== "variable_declarator") return [];
  const name = parent.childForFieldName("name");
  if (name?.type === "identifier") return [name.text];
  return name?.type === "object_pattern" ? namesIn(name, JS_PATTERN_NAMES) : [];
}

const JS_PATTERN_NAMES = typeSet("shorthand_property_identifier_pattern", "identifier");

/**
 * `import("./types").Name` in a doc comment (`@param {import("./types").CardOptions}`,
 * `@typedef {import('../fetchers/types').Lang} Lang`): how JavaScript checked by
 * TypeScript names types of other files, which the code then never imports.
 */
const DOC_IMPORT = /\bimport\(\s*(["'])([^"'\n]+)\1\s*\)(?:\.([A-Za-z_$][\w$]*))?/g;

function docCommentImports(comment: string): ImportStatement[] {
  // Only a doc comment holds types; another comment's `import("x")` is prose.
  if (!comment.startsWith("/**") || !comment.includes("import(")) return [];
  const found: ImportStatement[] = [];
  for (const match of comment.matchAll(DOC_IMPORT)) {
    const [, , specifier = "", name] = match;
    const lineOffset = comment.slice(0, match.index).split("\n").length - 1;
    found.push({ specifier, names: name ? [name] : [], lineOffset, typeUse: true });
  }
  return found;
}

/** `import("./x")` as code: `await import("./x")`, `const { a } = await import("./x")`. */
function dynamicImport(keyword: Node): ImportStatement[] {
  const call = keyword.parent;
  if (call?.type !== "call_expression") return [];
  const argument = call.childForFieldName("arguments")?.namedChildren[0] ?? null;
  if (argument?.type !== "string") return [];
  let holder = call.parent;
  if (holder?.type === "await_expression") holder = holder.parent;
  const name = holder?.type === "variable_declarator" ? holder.childForFieldName("name") : null;
  const names = name?.type === "object_pattern" ? namesIn(name, JS_PATTERN_NAMES) : [];
  return [{ specifier: unquote(argument.text), names }];
}

/** `import … from`, `export … from`, `import("…")`, and `require("…")` calls. */
export function jsImports(node: Node): ImportStatement[] {
  if (node.type === "comment") return docCommentImports(node.text);
  if (node.type === "import") return dynamicImport(node);
  if (node.type === "call_expression") {
    const callee = node.childForFieldName("function");
    if (callee?.text !== "require") return [];
    const argument = node.childForFieldName("arguments")?.namedChildren[0] ?? null;
    if (!argument || !/string|template_string/.test(argument.type)) return [];
    return [{ specifier: unquote(argument.text), names: requiredNames(node) }];
  }
  const source = node.childForFieldName("source");
  if (!source) return [];
  const clause =
    node.namedChildren.find(
      (child) => child.type === "import_clause" || child.type === "export_clause",
    ) ?? null;
  return [
    {
      specifier: unquote(source.text),
      names: namesIn(clause, JS_NAMES),
      reexport: node.type === "export_statement",
    },
  ];
}

/**
 * A relative import resolves from the file's folder; a bare specifier is a
 * package unless tsconfig's paths or baseUrl map it into the project. One
 * target stands for the fourteen files a module path may be (see
 * moduleFiles): listed, they were most of what a JavaScript project's graph
 * handed from the indexing workers to the writer and stored (three.js: 56,000
 * paths for 4,250 imports).
 */
export const jsImportTargets: NonNullable<LanguageSupport["importTargets"]> = (
  file,
  specifier,
  _names,
  aliases,
) => {
  if (specifier.startsWith(".")) return [jsModule(posix.join(posix.dirname(file), specifier))];
  return aliases ? aliasedPaths(specifier, aliases).map(jsModule) : [];
};

const javascriptFamily = {
  family: "javascript",
  graph,
  readImports: jsImports,
  importTargets: jsImportTargets,
  importScoped: true,
} as const;

export const typescript: LanguageSupport = {
  name: "typescript",
  extensions: [".ts", ".mts", ".cts"],
  interpreters: ["deno", "ts-node", "tsx"],
  editorModes: ["typescript"],
  grammar,
  ...javascriptFamily,
};

export const tsx: LanguageSupport = {
  name: "tsx",
  extensions: [".tsx"],
  grammar: { ...grammar, wasm: `${VSCODE}/tree-sitter-tsx.wasm` },
  ...javascriptFamily,
};

export const javascript: LanguageSupport = {
  name: "javascript",
  extensions: [".js", ".mjs", ".cjs", ".jsx"],
  interpreters: ["node", "nodejs", "bun"],
  editorModes: ["javascript", "js"],
  grammar: { ...grammar, wasm: `${VSCODE}/tree-sitter-javascript.wasm` },
  ...javascriptFamily,
};
