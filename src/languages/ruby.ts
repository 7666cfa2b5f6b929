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
/** Calls whose first argument names the one method they define. */
const NAMING_FIRST = new Set(["define_method", "alias_method"]);
const METHOD_NAME = /^[A-Za-z_]\w*[?!=]?$/;
/** An accessor's name is a plain word. */
const ACCESSOR_NAME = /^[A-Za-z_]\w*$/;

/**
 * The methods a call defines by name: `attr_accessor :status, :headers`
 * (and `attr_reader`, `attr_writer`), `define_method(:shout)`,
 * `alias_method :yell, :shout` and `alias yell shout` (the new name). A name
 * that is computed (`define_method(name)`) or a call on a receiver defines
 * nothing seen here.
 */
function definedNames(call: Node): string[] {
  if (call.type === "alias") {
    // `alias holler shout`, `alias :holler :shout`: the first name is the new one.
    const name = call.namedChildren[0]?.text.replace(/^:/, "") ?? "";
    return METHOD_NAME.test(name) ? [name] : [];
  }
  if (call.childForFieldName("receiver")) return [];
  const method = call.childForFieldName("method")?.text ?? "";
  const accessor = ACCESSORS.has(method);
  if (!accessor && !NAMING_FIRST.has(method)) return [];
  const all = call.childForFieldName("arguments")?.namedChildren ?? [];
  const names: string[] = [];
  for (const argument of accessor ? all : all.slice(0, 1)) {
    const name = argument.type === "simple_symbol" ? argument.text.slice(1) : "";
    if ((accessor ? ACCESSOR_NAME : METHOD_NAME).test(name)) names.push(name);
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
  extensions: [".rb", ".rake", ".gemspec", ".ru"],
  filenames: ["Rakefile", "Gemfile", "Guardfile", "Vagrantfile", "Podfile", "Fastfile", "Capfile"],
  interpreters: ["ruby", "jruby"],
  editorModes: ["ruby"],
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
    definingCalls: { types: typeSet("call", "alias"), names: definedNames },
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
