import { posix } from "node:path";
import type { Node } from "web-tree-sitter";
import type { ImportTarget } from "../core/graph.js";
import { exact, suffix } from "./import-paths.js";
import {
  type GrammarSpec,
  graphDefinitions,
  type ImportStatement,
  type LanguageSupport,
  typeSet,
  VSCODE,
} from "./language.js";

const grammar: GrammarSpec = {
  wasm: `${VSCODE}/tree-sitter-python.wasm`,
  definitions: { function_definition: "function", class_definition: "class" },
  containers: typeSet("class_definition"),
  wrappers: typeSet("decorated_definition"),
};

function readImports(node: Node): ImportStatement[] {
  if (node.type === "import_statement") {
    return node.namedChildren
      .map((child) => (child.type === "aliased_import" ? child.childForFieldName("name") : child))
      .filter((child): child is Node => child?.type === "dotted_name")
      .map((child) => ({ specifier: child.text, names: [] }));
  }
  const module = node.childForFieldName("module_name");
  if (!module) return [];
  const names = node
    .childrenForFieldName("name")
    .map((child) =>
      child?.type === "aliased_import" ? child.childForFieldName("name")?.text : child?.text,
    )
    .filter((name): name is string => Boolean(name));
  return [{ specifier: module.text, names }];
}

function importTargets(file: string, specifier: string, names: readonly string[]): ImportTarget[] {
  const dir = posix.dirname(file);
  const dots = /^\.*/.exec(specifier)?.[0].length ?? 0;
  const modulePath = specifier.slice(dots).split(".").filter(Boolean).join("/");
  const make = (path: string) => {
    if (dots === 0) return suffix(path);
    let base = dir;
    for (let up = 1; up < dots; up++) base = posix.dirname(base);
    return exact(posix.join(base, path));
  };
  const targets: ImportTarget[] = [];
  if (modulePath) targets.push(make(`${modulePath}.py`), make(`${modulePath}/__init__.py`));
  else targets.push(make("__init__.py"));
  // `from pkg import mod` may import a module.
  for (const name of names) targets.push(make(posix.join(modulePath, `${name}.py`)));
  return targets;
}

export const python: LanguageSupport = {
  name: "python",
  extensions: [".py", ".pyi"],
  interpreters: ["python", "pypy"],
  editorModes: ["python"],
  grammar,
  graph: {
    definitions: graphDefinitions(grammar),
    identifiers: typeSet("identifier"),
    typeIdentifiers: typeSet(),
    inherits: typeSet(),
    inheritFields: { class_definition: "superclasses" },
    typeContexts: typeSet("type"),
    imports: typeSet("import_statement", "import_from_statement"),
    declarations: typeSet(),
    quotedTypes: true,
  },
  readImports,
  importTargets,
  importScoped: true,
  hashComments: true,
  docstrings: true,
  decoratedBy: "decorated_definition",
};
