import type { Node } from "web-tree-sitter";
import type { SymbolKind } from "../core/graph.js";
import type { TopLevelDefinition, TopLevelRules } from "./language.js";

/**
 * JavaScript as much of npm writes it: definitions made by statements at a
 * module's top level rather than by declarations. `const f = …`,
 * `exports.f = function …`, `res.send = function send …`,
 * `View.prototype.lookup = function …`, `a.b = a.c = function …` and
 * `Object.defineProperty(obj, "name", { get: … })`, and the same statements
 * in a function that is the whole module (an IIFE, a plugin exported as a
 * function). They are read from the root's children and those bodies: asking
 * each of a file's assignments for its parents, or searching every assignment
 * of every function body, cost more than the rest of the graph (three.js).
 */

const FUNCTION_VALUES = new Set([
  "arrow_function",
  "function_expression",
  "function",
  "generator_function",
]);
const CLASS_VALUES = new Set(["class"]);
const EXPORTS = new Set(["exports", "module.exports"]);
/** The pseudo node type of an `Object.defineProperty(…)` call that defines a property. */
const DEFINE_PROPERTY = "Object.defineProperty";

function find(root: Node): TopLevelDefinition[] {
  const found: TopLevelDefinition[] = [];
  for (const child of root.namedChildren) {
    const declaration =
      child.type === "export_statement" ? child.childForFieldName("declaration") : child;
    if (
      declaration?.type === "lexical_declaration" ||
      declaration?.type === "variable_declaration"
    ) {
      for (const declarator of declaration.namedChildren) {
        if (declarator.type === "variable_declarator")
          found.push({ node: declarator, type: declarator.type });
      }
      continue;
    }
    if (child.type === "expression_statement") findAssigned(child, found);
    // A module written inside one function: its statements define as a module's would.
    for (const body of moduleBodies(child)) {
      for (const statement of body.namedChildren) {
        if (statement.type === "expression_statement") findAssigned(statement, found);
        else if (LOCAL_DECLARATIONS.has(statement.type)) findLocalFunctions(statement, found);
      }
    }
  }
  return found;
}

const LOCAL_DECLARATIONS = new Set(["lexical_declaration", "variable_declaration"]);

/** `var Widget = function (…)` in a module's function: its locals that are values (`const proto = …`) define nothing. */
function findLocalFunctions(declaration: Node, found: TopLevelDefinition[]): void {
  for (const declarator of declaration.namedChildren) {
    const value = declarator.childForFieldName("value")?.type ?? "";
    if (FUNCTION_VALUES.has(value) || CLASS_VALUES.has(value))
      found.push({ node: declarator, type: declarator.type });
  }
}

/** `a.b = …`, `req.get = req.header = function …` (each member assigned is defined) and defineProperty calls. */
function findAssigned(statement: Node, found: TopLevelDefinition[]): void {
  let expression = statement.namedChildren[0] ?? null;
  while (expression?.type === "assignment_expression") {
    if (expression.childForFieldName("left")?.type === "member_expression")
      found.push({ node: expression, type: expression.type });
    expression = expression.childForFieldName("right");
  }
  if (expression?.type === "call_expression" && isDefineProperty(expression))
    found.push({ node: expression, type: DEFINE_PROPERTY });
}

/**
 * The bodies of functions that are the whole module: an IIFE
 * (`(function () { … })()`, `!function () { … }()`) and a factory it is
 * handed (UMD's `(function (root, factory) { … })(this, function () { … })`),
 * an AMD module's factory, or a plugin exported as a function
 * (`export default (option, Class) => { proto.week = function … }`,
 * `module.exports = function (Vue) { … }`).
 */
function moduleBodies(statement: Node): Node[] {
  let values: (Node | null)[] = [];
  if (statement.type === "export_statement") {
    const value =
      statement.childForFieldName("declaration") ?? statement.childForFieldName("value");
    values = [value?.type === "function_declaration" ? value : moduleFunction(value)];
  } else if (statement.type === "expression_statement") {
    let expression = statement.namedChildren[0] ?? null;
    if (expression?.type === "unary_expression")
      expression = expression.childForFieldName("argument");
    if (expression?.type === "call_expression") {
      const called = expression.childForFieldName("function");
      const callee = moduleFunction(called);
      const handed = expression.childForFieldName("arguments")?.namedChildren ?? [];
      if (callee) values = [callee, ...handed.map(moduleFunction)];
      // AMD: `define(["dep"], function (dep) { … })`.
      else if (called?.type === "identifier" && called.text === "define")
        values = handed.map(moduleFunction);
    } else if (
      expression?.type === "assignment_expression" &&
      expression.childForFieldName("left")?.text.replace(/\s+/g, "") === "module.exports"
    ) {
      values = [moduleFunction(expression.childForFieldName("right"))];
    }
  }
  const bodies: Node[] = [];
  for (const value of values) {
    const body = value?.childForFieldName("body");
    if (body?.type === "statement_block") bodies.push(body);
  }
  return bodies;
}

/** A function expression, arrow or not, in parentheses or not. */
function moduleFunction(node: Node | null): Node | null {
  let current = node;
  while (current?.type === "parenthesized_expression") current = current.namedChildren[0] ?? null;
  return current && FUNCTION_VALUES.has(current.type) ? current : null;
}

function isDefineProperty(call: Node): boolean {
  return call.childForFieldName("function")?.text === DEFINE_PROPERTY;
}

/**
 * `require("…")`, a member of what it returns (`require("./utils").compileTrust`)
 * or a call of it (`require("debug")("express:view")`).
 */
export function isRequire(value: Node | null): boolean {
  let current = value;
  for (let depth = 0; current && depth < 4; depth++) {
    if (current.type === "member_expression") current = current.childForFieldName("object");
    else if (current.type !== "call_expression") return false;
    else {
      const callee = current.childForFieldName("function");
      if (callee?.type === "identifier") return callee.text === "require";
      current = callee;
    }
  }
  return false;
}

/** `View.prototype` and `View` own the same methods. */
function ownerName(object: Node | null): string {
  const text = object?.text ?? "";
  const owner = text.endsWith(".prototype") ? text.slice(0, -".prototype".length) : text;
  return /^[\w$.]+$/.test(owner) ? owner : "";
}

/** The value at the end of a chain of assignments. */
function assignedValue(assignment: Node): Node | null {
  let value = assignment.childForFieldName("right");
  while (value?.type === "assignment_expression") value = value.childForFieldName("right");
  return value;
}

/**
 * What a top-level assignment or defineProperty call defines, or null
 * (`app.locals = …`, `this.x = …`); undefined for a declarator, which the
 * graph reads as any definition.
 */
function define(
  node: Node,
  type: string,
): { name: string; kind: SymbolKind; parent: string; body: Node | null } | null | undefined {
  // `const x = require("./x")` and `var f = require("./x").f` import; they define nothing.
  if (type === "variable_declarator")
    return isRequire(node.childForFieldName("value")) ? null : undefined;
  if (type === DEFINE_PROPERTY) {
    const [object, key, descriptor] = node.childForFieldName("arguments")?.namedChildren ?? [];
    if (key?.type !== "string" || descriptor?.type !== "object") return null;
    const name = key.text.slice(1, -1);
    const owner = ownerName(object ?? null);
    if (!/^[\w$]+$/.test(name) || owner === "" || EXPORTS.has(owner)) return null;
    return { name, kind: "method", parent: owner, body: descriptor };
  }
  const left = node.childForFieldName("left");
  const property = left?.childForFieldName("property");
  if (property?.type !== "property_identifier") return null;
  const owner = ownerName(left?.childForFieldName("object") ?? null);
  if (owner === "" || owner === "this") return null;
  const value = assignedValue(node);
  if (owner === "module" && property.text === "exports") {
    // `module.exports = function query(…)`: the module is that function, by its own name.
    const name = value?.type === "function_expression" ? value.childForFieldName("name") : null;
    if (!name) return null;
    return {
      name: name.text,
      kind: "function",
      parent: "",
      body: value?.childForFieldName("body") ?? null,
    };
  }
  // `exports.View = View` exports what is defined elsewhere.
  if (value?.type === "identifier") return null;
  const exported = EXPORTS.has(owner);
  const isFunction = value !== null && FUNCTION_VALUES.has(value.type);
  const kind: SymbolKind | null = isFunction
    ? exported
      ? "function"
      : "method"
    : value !== null && CLASS_VALUES.has(value.type)
      ? "class"
      : exported
        ? "constant"
        : null;
  if (!kind) return null;
  return {
    name: property.text,
    kind,
    parent: exported ? "" : owner,
    body: isFunction ? (value?.childForFieldName("body") ?? null) : null,
  };
}

export const JAVASCRIPT_TOP_LEVEL: TopLevelRules = {
  types: new Set(["variable_declarator", "assignment_expression", DEFINE_PROPERTY]),
  find,
  define,
};

/** The chunk name of a top-level `a.b = function …` (`res.send`), or null when it assigns no function or class. */
export function assignedFunctionName(assignment: Node): string | null {
  const left = assignment.childForFieldName("left");
  if (left?.type !== "member_expression") return null;
  const value = assignedValue(assignment);
  if (!value || !(FUNCTION_VALUES.has(value.type) || CLASS_VALUES.has(value.type))) return null;
  return left.text.replace(/\s+/g, "");
}
