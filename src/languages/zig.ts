import { posix } from "node:path";
import type { Node } from "web-tree-sitter";
import type { SymbolKind } from "../core/graph.js";
import { exact, stringIn } from "./import-paths.js";
import {
  type GrammarSpec,
  graphDefinitions,
  type LanguageSupport,
  typeSet,
  VENDORED,
} from "./language.js";
import { childText, nameField } from "./node-names.js";

const CONTAINERS: Readonly<Record<string, SymbolKind>> = {
  struct_declaration: "class",
  union_declaration: "type",
  enum_declaration: "enum",
  opaque_declaration: "type",
};
const NAMES = typeSet("identifier");

/** The struct, enum or union a `const X = …` declares, or null. */
function containerValue(node: Node): Node | null {
  return node.namedChildren.find((child) => CONTAINERS[child.type] !== undefined) ?? null;
}

const grammar: GrammarSpec = {
  wasm: `${VENDORED}/tree-sitter-zig.wasm`,
  definitions: { function_declaration: "function", variable_declaration: "class" },
  containers: typeSet("variable_declaration"),
  wrappers: typeSet(),
  classify: (node, kind) => {
    if (node.type === "function_declaration") return { kind, name: nameField(node) };
    // `const Circle = struct { … }` defines a type; any other variable is data.
    const value = containerValue(node);
    const container = value ? CONTAINERS[value.type] : undefined;
    return container ? { kind: container, name: childText(node, NAMES) } : null;
  },
  bodyOf: containerValue,
};

export const zig: LanguageSupport = {
  name: "zig",
  extensions: [".zig"],
  grammar,
  graph: {
    definitions: graphDefinitions(grammar),
    identifiers: typeSet("identifier"),
    typeIdentifiers: typeSet(),
    inherits: typeSet(),
    inheritFields: {},
    typeContexts: typeSet(),
    imports: typeSet("builtin_function"),
    declarations: typeSet(),
  },
  readImports: (node) => {
    if (node.namedChildren[0]?.text !== "@import") return [];
    const path = stringIn(node.namedChildren[1] ?? null);
    return path ? [{ specifier: path, names: [] }] : [];
  },
  importTargets: (file, specifier) =>
    specifier.endsWith(".zig") ? [exact(posix.join(posix.dirname(file), specifier))] : [],
};
