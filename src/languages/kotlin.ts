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
import { nameField } from "./node-names.js";

const BODIES = typeSet("class_body", "enum_class_body", "function_body");

const grammar: GrammarSpec = {
  wasm: `${VENDORED}/tree-sitter-kotlin.wasm`,
  definitions: {
    class_declaration: "class",
    object_declaration: "class",
    companion_object: "class",
    function_declaration: "function",
    secondary_constructor: "method",
    type_alias: "type",
  },
  containers: typeSet("class_declaration", "object_declaration", "companion_object"),
  wrappers: typeSet(),
  bodyOf: (node) => node.namedChildren.find((child) => BODIES.has(child.type)) ?? null,
  classify: (node, kind) => {
    switch (node.type) {
      case "class_declaration":
        return {
          kind: node.children.some((child) => child.type === "interface")
            ? "interface"
            : node.namedChildren.some((child) => child.type === "enum_class_body")
              ? "enum"
              : kind,
          name: nameField(node),
        };
      case "companion_object":
        return { kind, name: nameField(node) || "Companion" };
      case "secondary_constructor":
        return { kind, name: "constructor" };
      case "type_alias":
        return { kind, name: node.childForFieldName("type")?.text ?? "" };
      default:
        return { kind, name: nameField(node) };
    }
  },
};

function readImports(node: Node): ImportStatement[] {
  const path = node.namedChildren.find((child) => child.type === "qualified_identifier");
  if (!path) return [];
  const wildcard = node.text.trimEnd().endsWith("*");
  const last = path.text.split(".").pop() ?? "";
  return [{ specifier: `${path.text}${wildcard ? ".*" : ""}`, names: wildcard ? [] : [last] }];
}

/**
 * `import a.b.C`: the file `a/b/C.kt` by convention, else any file of the
 * package's folder (Kotlin files need not be named after what they define:
 * `a.b.someFunction` lives in some file of `a/b/`).
 */
function importTargets(_file: string, specifier: string): ImportTarget[] {
  const parts = specifier.split(".");
  if (parts[parts.length - 1] === "*") return [folder(parts.slice(0, -1).join("/"))];
  const packagePath = parts.slice(0, -1).join("/");
  const targets = [suffix(`${parts.join("/")}.kt`)];
  if (packagePath) targets.push(folder(packagePath));
  return targets;
}

export const kotlin: LanguageSupport = {
  name: "kotlin",
  family: "jvm",
  extensions: [".kt", ".kts"],
  grammar,
  graph: {
    definitions: graphDefinitions(grammar),
    identifiers: typeSet("identifier"),
    typeIdentifiers: typeSet(),
    inherits: typeSet("delegation_specifiers"),
    inheritFields: {},
    typeContexts: typeSet("user_type"),
    imports: typeSet("import"),
    declarations: typeSet(),
  },
  readImports,
  importTargets,
};
