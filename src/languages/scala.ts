import type { Node } from "web-tree-sitter";
import type { ImportTarget } from "../core/graph.js";
import { folder, suffix } from "./import-paths.js";
import {
  type GrammarSpec,
  graphDefinitions,
  type ImportStatement,
  type LanguageSupport,
  typeSet,
  VENDORED,
} from "./language.js";

const grammar: GrammarSpec = {
  wasm: `${VENDORED}/tree-sitter-scala.wasm`,
  definitions: {
    class_definition: "class",
    object_definition: "class",
    trait_definition: "interface",
    enum_definition: "enum",
    function_definition: "function",
    function_declaration: "function",
    type_definition: "type",
    given_definition: "function",
    extension_definition: "impl",
  },
  containers: typeSet(
    "class_definition",
    "object_definition",
    "trait_definition",
    "enum_definition",
    "extension_definition",
  ),
  wrappers: typeSet(),
};

function readImports(node: Node): ImportStatement[] {
  const path = node
    .childrenForFieldName("path")
    .filter((part): part is Node => part !== null)
    .map((part) => part.text);
  if (path.length === 0) return [];
  const selectors = node.namedChildren.find(
    (child) => child.type === "namespace_selectors" || child.type === "namespace_wildcard",
  );
  if (selectors?.type === "namespace_wildcard")
    return [{ specifier: `${path.join(".")}.*`, names: [] }];
  const names = selectors
    ? selectors.namedChildren.map((child) => child.namedChildren[0]?.text ?? child.text)
    : [path[path.length - 1] ?? ""];
  return [{ specifier: path.join("."), names: names.filter(Boolean) }];
}

/** `import a.b.C`: `a/b/C.scala`, else a file of the package's folder. */
function importTargets(_file: string, specifier: string, names: readonly string[]): ImportTarget[] {
  const parts = specifier.split(".");
  if (parts[parts.length - 1] === "*") return [folder(parts.slice(0, -1).join("/"))];
  const single = names.length === 1 && names[0] === parts[parts.length - 1];
  const packageParts = single ? parts.slice(0, -1) : parts;
  const targets = single ? [suffix(`${parts.join("/")}.scala`)] : [];
  for (const name of single ? [] : names)
    targets.push(suffix(`${[...parts, name].join("/")}.scala`));
  if (packageParts.length > 0) targets.push(folder(packageParts.join("/")));
  return targets;
}

export const scala: LanguageSupport = {
  name: "scala",
  family: "jvm",
  extensions: [".scala", ".sc"],
  grammar,
  graph: {
    definitions: graphDefinitions(grammar),
    identifiers: typeSet("identifier", "type_identifier"),
    typeIdentifiers: typeSet("type_identifier"),
    inherits: typeSet("extends_clause"),
    inheritFields: {},
    typeContexts: typeSet(),
    imports: typeSet("import_declaration"),
    declarations: typeSet(),
  },
  readImports,
  importTargets,
};
