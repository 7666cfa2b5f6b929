import { folder, suffix } from "./import-paths.js";
import {
  type GrammarSpec,
  graphDefinitions,
  type LanguageSupport,
  typeSet,
  VSCODE,
} from "./language.js";

const grammar: GrammarSpec = {
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
  containers: typeSet(
    "class_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
  ),
  wrappers: typeSet(),
};

export const java: LanguageSupport = {
  name: "java",
  family: "jvm",
  extensions: [".java"],
  grammar,
  graph: {
    definitions: graphDefinitions(grammar),
    identifiers: typeSet("identifier", "type_identifier"),
    typeIdentifiers: typeSet("type_identifier"),
    inherits: typeSet("superclass", "super_interfaces", "extends_interfaces"),
    inheritFields: {},
    typeContexts: typeSet(),
    imports: typeSet("import_declaration"),
    declarations: typeSet(),
  },
  readImports: (node) => {
    const name = node.namedChildren.find((child) => /identifier/.test(child.type));
    if (!name) return [];
    const isStatic = node.children.some((child) => child.type === "static");
    const wildcard = node.namedChildren.some((child) => child.type === "asterisk");
    const specifier = `${isStatic ? "static " : ""}${name.text}${wildcard ? ".*" : ""}`;
    return [{ specifier, names: [name.text.split(".").pop() ?? ""] }];
  },
  importTargets: (_file, specifier) => {
    const parts = specifier.replace(/^static\s+/, "").split(".");
    if (parts[parts.length - 1] === "*") return [folder(parts.slice(0, -1).join("/"))];
    // `import a.b.C.method` (static): the class is the last capitalised part.
    const classAt = parts.findLastIndex((part) => /^[A-Z]/.test(part));
    const upTo = classAt >= 0 ? classAt + 1 : parts.length;
    return [suffix(`${parts.slice(0, upTo).join("/")}.java`)];
  },
};
