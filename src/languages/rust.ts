import { posix } from "node:path";
import type { Node } from "web-tree-sitter";
import type { ImportTarget } from "../core/graph.js";
import { exact, namesIn, suffix } from "./import-paths.js";
import {
  type GrammarSpec,
  graphDefinitions,
  type ImportStatement,
  type LanguageSupport,
  typeSet,
  VSCODE,
} from "./language.js";

const grammar: GrammarSpec = {
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
  containers: typeSet("impl_item", "trait_item", "mod_item"),
  wrappers: typeSet(),
};

function readImports(node: Node): ImportStatement[] {
  if (node.type === "mod_item") {
    // `mod name;` names a file; `mod name { … }` is defined in place.
    if (node.childForFieldName("body")) return [];
    const name = node.childForFieldName("name")?.text;
    return name ? [{ specifier: `mod ${name}`, names: [] }] : [];
  }
  const argument = node.childForFieldName("argument");
  if (!argument) return [];
  const names = namesIn(argument, typeSet("identifier", "type_identifier")).filter(
    (name) => !["crate", "super", "self"].includes(name),
  );
  return [{ specifier: argument.text, names: names.slice(-8) }];
}

function importTargets(file: string, specifier: string): ImportTarget[] {
  const dir = posix.dirname(file);
  if (specifier.startsWith("mod ")) {
    const name = specifier.slice(4);
    const stem = posix.basename(file, ".rs");
    const own = ["mod", "lib", "main"].includes(stem) ? dir : posix.join(dir, stem);
    return [exact(posix.join(own, `${name}.rs`)), exact(posix.join(own, name, "mod.rs"))];
  }
  const parts = specifier
    .replace(/\{.*$/s, "")
    .split("::")
    .map((part) => part.trim())
    .filter((part) => part !== "" && part !== "*");
  const head = parts[0];
  const relative = head === "super" || head === "self";
  const rest = parts.filter((part) => !["crate", "super", "self"].includes(part));
  const base = head === "super" ? posix.dirname(dir) : dir;
  const targets: ImportTarget[] = [];
  for (let length = rest.length; length >= 1; length--) {
    const path = rest.slice(0, length).join("/");
    if (relative) {
      targets.push(exact(posix.join(base, `${path}.rs`)), exact(posix.join(base, path, "mod.rs")));
    } else if (head === "crate" || length < rest.length || rest.length === 1) {
      targets.push(suffix(`${path}.rs`), suffix(`${path}/mod.rs`));
    }
  }
  return targets;
}

export const rust: LanguageSupport = {
  name: "rust",
  extensions: [".rs"],
  grammar,
  graph: {
    definitions: graphDefinitions(grammar, { const_item: "constant", static_item: "constant" }),
    identifiers: typeSet("identifier", "type_identifier", "field_identifier"),
    typeIdentifiers: typeSet("type_identifier"),
    inherits: typeSet("trait_bounds"),
    inheritFields: { impl_item: "trait" },
    typeContexts: typeSet(),
    imports: typeSet("use_declaration", "mod_item"),
    declarations: typeSet(),
  },
  readImports,
  importTargets,
};
