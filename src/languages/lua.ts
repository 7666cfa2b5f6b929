import type { Node } from "web-tree-sitter";
import { stringIn, suffix } from "./import-paths.js";
import {
  type GrammarSpec,
  graphDefinitions,
  type LanguageSupport,
  typeSet,
  VENDORED,
} from "./language.js";
import { nameField } from "./node-names.js";

/** `x = function(…) … end`: the name an assignment gives a function, or null. */
function assignedFunction(node: Node): string | null {
  const assignment =
    node.type === "variable_declaration"
      ? node.namedChildren.find((child) => child.type === "assignment_statement")
      : node;
  if (!assignment) return null;
  const targets = assignment.namedChildren.find((child) => child.type === "variable_list");
  const values = assignment.namedChildren.find((child) => child.type === "expression_list");
  if (targets?.namedChildCount !== 1 || values?.namedChildren[0]?.type !== "function_definition")
    return null;
  return targets.namedChildren[0]?.text ?? null;
}

const grammar: GrammarSpec = {
  wasm: `${VENDORED}/tree-sitter-lua.wasm`,
  definitions: {
    function_declaration: "function",
    assignment_statement: "function",
    variable_declaration: "function",
  },
  containers: typeSet(),
  wrappers: typeSet(),
  classify: (node, kind) => {
    if (node.type === "function_declaration") return { kind, name: nameField(node) };
    // `local x = …` holds its assignment: the declaration is the definition, not both.
    if (node.type === "assignment_statement" && node.parent?.type === "variable_declaration")
      return null;
    const name = assignedFunction(node);
    return name ? { kind, name } : null;
  },
};

export const lua: LanguageSupport = {
  name: "lua",
  extensions: [".lua"],
  grammar,
  graph: {
    definitions: graphDefinitions(grammar),
    identifiers: typeSet("identifier"),
    typeIdentifiers: typeSet(),
    inherits: typeSet(),
    inheritFields: {},
    typeContexts: typeSet(),
    imports: typeSet("function_call"),
    declarations: typeSet(),
  },
  readImports: (node) => {
    if (node.childForFieldName("name")?.text !== "require") return [];
    const path = stringIn(node.childForFieldName("arguments"));
    return path ? [{ specifier: path, names: [] }] : [];
  },
  importTargets: (_file, specifier) => {
    const path = specifier.replace(/\./g, "/");
    return [suffix(`${path}.lua`), suffix(`${path}/init.lua`)];
  },
  // `function Circle.new()` and `function Circle:area()` are Circle's.
  qualifiedNames: /[.:]/g,
};
