import { posix } from "node:path";
import type { Node } from "web-tree-sitter";
import { exact, stringIn, suffix } from "./import-paths.js";
import {
  type GrammarSpec,
  graphDefinitions,
  type LanguageSupport,
  typeSet,
  VSCODE,
} from "./language.js";

const ACCESSORS = new Set(["attr_accessor", "attr_reader", "attr_writer"]);

/** `attr_accessor :status, :headers` defines the methods `status` and `headers` (and their writers). */
function accessorNames(call: Node): string[] {
  if (call.childForFieldName("receiver")) return [];
  const method = call.childForFieldName("method")?.text ?? "";
  if (!ACCESSORS.has(method)) return [];
  const names: string[] = [];
  for (const argument of call.childForFieldName("arguments")?.namedChildren ?? []) {
    if (argument.type !== "simple_symbol") continue;
    const name = argument.text.slice(1);
    if (/^[A-Za-z_]\w*$/.test(name)) names.push(name);
  }
  return names;
}

const grammar: GrammarSpec = {
  wasm: `${VSCODE}/tree-sitter-ruby.wasm`,
  definitions: {
    method: "method",
    singleton_method: "method",
    class: "class",
    singleton_class: "class",
    module: "module",
  },
  containers: typeSet("class", "singleton_class", "module"),
  wrappers: typeSet(),
};

export const ruby: LanguageSupport = {
  name: "ruby",
  extensions: [".rb"],
  grammar,
  graph: {
    definitions: graphDefinitions(grammar),
    identifiers: typeSet("identifier", "constant"),
    typeIdentifiers: typeSet(),
    inherits: typeSet("superclass"),
    inheritFields: {},
    typeContexts: typeSet(),
    imports: typeSet("call"),
    declarations: typeSet(),
    definingCalls: { types: typeSet("call"), names: accessorNames },
  },
  readImports: (node) => {
    const method = node.childForFieldName("method")?.text;
    if (method !== "require" && method !== "require_relative") return [];
    const path = stringIn(node.childForFieldName("arguments"));
    if (!path) return [];
    const relative = method === "require_relative" && !path.startsWith(".");
    return [{ specifier: relative ? `./${path}` : path, names: [] }];
  },
  // `require_relative "x"` arrives as `./x`.
  importTargets: (file, specifier) => {
    const path = specifier.endsWith(".rb") ? specifier : `${specifier}.rb`;
    return specifier.startsWith(".")
      ? [exact(posix.join(posix.dirname(file), path))]
      : [suffix(path)];
  },
  hashComments: true,
  nameMarks: true,
};
