import { posix } from "node:path";
import type { Node } from "web-tree-sitter";
import { exact, stringIn, suffix } from "./import-paths.js";
import {
  type GrammarSpec,
  graphDefinitions,
  type LanguageSupport,
  REPOMIX,
  typeSet,
} from "./language.js";
import { childText, nameField } from "./node-names.js";

const SIGNATURES = typeSet(
  "function_signature",
  "getter_signature",
  "setter_signature",
  "constructor_signature",
  "factory_constructor_signature",
  "operator_signature",
);
const NAMES = typeSet("identifier");
const TYPE_NAMES = typeSet("type_identifier");

/** The signature a method or member declaration holds, if it declares a function. */
function innerSignature(node: Node): Node | null {
  return node.namedChildren.find((child) => SIGNATURES.has(child.type)) ?? null;
}

function signatureName(signature: Node): string {
  return nameField(signature) || childText(signature, NAMES);
}

const grammar: GrammarSpec = {
  wasm: `${REPOMIX}/tree-sitter-dart.wasm`,
  definitions: {
    class_definition: "class",
    mixin_declaration: "class",
    enum_declaration: "enum",
    extension_declaration: "impl",
    type_alias: "type",
    function_signature: "function",
    method_signature: "method",
    declaration: "method",
  },
  containers: typeSet("class_definition", "mixin_declaration", "extension_declaration"),
  wrappers: typeSet(),
  // A method's body follows its signature: `int add(…) { … }` is two nodes.
  trailingBodies: typeSet("function_body"),
  classify: (node, kind) => {
    switch (node.type) {
      case "method_signature":
      case "declaration": {
        // A field (`final List<T> items;`) declares no function.
        const signature = innerSignature(node);
        return signature ? { kind, name: signatureName(signature) } : null;
      }
      case "function_signature":
        // Inside a method's signature it is that method, already found.
        return node.parent?.type === "method_signature" || node.parent?.type === "declaration"
          ? null
          : { kind, name: signatureName(node) };
      case "mixin_declaration":
        return { kind, name: childText(node, NAMES) };
      case "type_alias":
        return { kind, name: childText(node, TYPE_NAMES) };
      default:
        return { kind, name: nameField(node) };
    }
  },
};

export const dart: LanguageSupport = {
  name: "dart",
  extensions: [".dart"],
  grammar,
  graph: {
    definitions: graphDefinitions(grammar),
    identifiers: typeSet("identifier", "type_identifier"),
    typeIdentifiers: typeSet("type_identifier"),
    inherits: typeSet("superclass", "interfaces", "mixins"),
    inheritFields: {},
    typeContexts: typeSet(),
    imports: typeSet("import_or_export"),
    declarations: typeSet(),
  },
  readImports: (node) => {
    const uri = stringIn(node);
    return uri ? [{ specifier: uri, names: [] }] : [];
  },
  importTargets: (file, specifier) => {
    if (specifier.startsWith("dart:")) return [];
    // `package:name/path.dart` is lib/path.dart of package `name`: this project's when it has it.
    const packaged = /^package:[^/]+\/(.+)$/.exec(specifier);
    if (packaged) return [suffix(`lib/${packaged[1]}`), suffix(packaged[1] ?? "")];
    return [exact(posix.join(posix.dirname(file), specifier))];
  },
};
