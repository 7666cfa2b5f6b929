import { posix } from "node:path";
import { exact, stringIn, suffix } from "./import-paths.js";
import {
  type GrammarSpec,
  graphDefinitions,
  type LanguageSupport,
  typeSet,
  VSCODE,
} from "./language.js";

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
