import { folder } from "./import-paths.js";
import {
  type GrammarSpec,
  graphDefinitions,
  type LanguageSupport,
  REPOMIX,
  typeSet,
} from "./language.js";
import { nameField } from "./node-names.js";

/** The keyword a Swift `class_declaration` starts with: class, struct, enum, extension or actor. */
function declarationKeyword(node: { children: readonly { type: string }[] }): string {
  return (
    node.children.find((child) =>
      ["class", "struct", "enum", "extension", "actor"].includes(child.type),
    )?.type ?? "class"
  );
}

const grammar: GrammarSpec = {
  wasm: `${REPOMIX}/tree-sitter-swift.wasm`,
  definitions: {
    class_declaration: "class",
    protocol_declaration: "interface",
    function_declaration: "function",
    protocol_function_declaration: "method",
    init_declaration: "method",
    typealias_declaration: "type",
  },
  containers: typeSet("class_declaration", "protocol_declaration"),
  wrappers: typeSet(),
  classify: (node, kind) => {
    switch (node.type) {
      case "class_declaration": {
        const keyword = declarationKeyword(node);
        return {
          kind: keyword === "enum" ? "enum" : keyword === "extension" ? "impl" : kind,
          name: nameField(node),
        };
      }
      case "init_declaration":
        return { kind, name: "init" };
      default:
        return { kind, name: nameField(node) };
    }
  },
};

export const swift: LanguageSupport = {
  name: "swift",
  extensions: [".swift"],
  interpreters: ["swift"],
  grammar,
  graph: {
    definitions: graphDefinitions(grammar),
    identifiers: typeSet("simple_identifier", "type_identifier"),
    typeIdentifiers: typeSet("type_identifier"),
    inherits: typeSet("inheritance_specifier"),
    inheritFields: {},
    typeContexts: typeSet("type_annotation"),
    imports: typeSet("import_declaration"),
    declarations: typeSet(),
  },
  readImports: (node) => {
    const name = node.namedChildren.find((child) => child.type === "identifier");
    return name ? [{ specifier: name.text, names: [] }] : [];
  },
  // A module is a target's folder (`Sources/Name/`); its files see each other without imports.
  importTargets: (_file, specifier) => [folder(`Sources/${specifier}`)],
};
