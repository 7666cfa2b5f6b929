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

/** `local x = …` holds its assignment; `x = …` is one. */
function assignmentOf(node: Node): Node | undefined {
  return node.type === "variable_declaration"
    ? node.namedChildren.find((child) => child.type === "assignment_statement")
    : node;
}

/** The function an assignment of one value gives, or undefined. */
function assignedFunctionValue(assignment: Node | undefined): Node | undefined {
  const values = assignment?.namedChildren.find((child) => child.type === "expression_list");
  const value = values?.namedChildren[0];
  return value?.type === "function_definition" ? value : undefined;
}

/** `x = function(…) … end`: the name an assignment gives a function, or null. */
function assignedFunction(node: Node): string | null {
  const assignment = assignmentOf(node);
  const targets = assignment?.namedChildren.find((child) => child.type === "variable_list");
  if (targets?.namedChildCount !== 1 || !assignedFunctionValue(assignment)) return null;
  const target = targets.namedChildren[0];
  // Inside a function, `local f = function` (or `f = function` to a variable) binds a
  // variable of that call, not an API: pretty.write's own `ipairs`. `obj.f = function` stays.
  if (target?.type === "identifier" && insideFunction(node)) return null;
  return target?.text ?? null;
}

function insideFunction(node: Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (parent.type === "function_declaration" || parent.type === "function_definition")
      return true;
  }
  return false;
}

/**
 * Where an assigned function's body starts (`x = function(a)` stops there, not
 * at the assignment's end): its block, or its `end` when it has none.
 */
function assignedBody(node: Node): Node | null {
  const value = assignedFunctionValue(assignmentOf(node));
  return value ? (value.childForFieldName("body") ?? value.lastChild) : null;
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
  bodyOf: assignedBody,
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
  interpreters: ["lua", "luajit"],
  editorModes: ["lua"],
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
