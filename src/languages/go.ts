import type { Node } from "web-tree-sitter";
import { folder, stringIn } from "./import-paths.js";
import { type LanguageSupport, typeSet, VSCODE } from "./language.js";

/** A Go method's receiver type: `S` of `func (s *S) Run()` and of `func (s S[T]) Run()`. */
function receiverType(node: Node): string {
  const receiver = node.childForFieldName("receiver")?.namedChildren[0];
  let type = receiver?.childForFieldName("type") ?? null;
  for (let depth = 0; type && depth < 3; depth++) {
    if (type.type === "type_identifier") return type.text;
    type =
      type.type === "generic_type"
        ? type.childForFieldName("type")
        : (type.namedChildren[0] ?? null);
  }
  return "";
}

export const go: LanguageSupport = {
  name: "go",
  extensions: [".go"],
  grammar: {
    wasm: `${VSCODE}/tree-sitter-go.wasm`,
    definitions: {
      function_declaration: "function",
      method_declaration: "method",
      type_declaration: "type",
    },
    containers: typeSet(),
    wrappers: typeSet(),
  },
  graph: {
    definitions: {
      function_declaration: "function",
      method_declaration: "method",
      // A method an interface type asks for (`Area() float64`).
      method_elem: "method",
      type_spec: "type",
      const_spec: "constant",
    },
    identifiers: typeSet("identifier", "type_identifier", "field_identifier", "package_identifier"),
    typeIdentifiers: typeSet("type_identifier"),
    inherits: typeSet(),
    inheritFields: {},
    typeContexts: typeSet(),
    imports: typeSet("import_spec"),
    declarations: typeSet(),
  },
  readImports: (node) => {
    const path = stringIn(node.childForFieldName("path"));
    return path ? [{ specifier: path, names: [] }] : [];
  },
  importTargets: (_file, specifier) => {
    const parts = specifier.split("/");
    // A module path's last two parts find the package folder without knowing the module name.
    return parts.length >= 2 ? [folder(parts.slice(-2).join("/"))] : [folder(specifier)];
  },
  ownerOf: (node, type) => (type === "method_declaration" ? receiverType(node) : null),
};
