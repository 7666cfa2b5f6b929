import type { Node } from "web-tree-sitter";

/** 1-based first line of a node. */
export function startLine(node: Node): number {
  return node.startPosition.row + 1;
}

/** 1-based last line of a node; a node that ends at column 0 ends on the line before. */
export function endLine(node: Node): number {
  const { row, column } = node.endPosition;
  return column === 0 && row > node.startPosition.row ? row : row + 1;
}

/** Comments, attributes and annotations (Dart's `@override`) before a definition belong to it. */
export function isLeadingTrivia(node: Node): boolean {
  return (
    node.type.includes("comment") || node.type === "attribute_item" || node.type === "annotation"
  );
}

const BODY_TYPES = new Set([
  "class_body",
  "block",
  "declaration_list",
  "body_statement",
  "field_declaration_list",
  "statement_block",
  "enum_body",
  "interface_body",
  "enum_class_body",
]);

/** The node holding a container's members. */
export function bodyOf(node: Node): Node | null {
  return (
    node.childForFieldName("body") ??
    node.namedChildren.find((child) => BODY_TYPES.has(child.type)) ??
    null
  );
}

const MAX_NAME_LENGTH = 120;
const FUNCTION_VALUES = new Set([
  "arrow_function",
  "function_expression",
  "function",
  "generator_function",
  "class",
]);

/** The value-bound name of `const f = () => …`, or null when no declarator holds a function. */
export function functionDeclaratorName(node: Node): string | null {
  for (const child of node.namedChildren) {
    if (child.type !== "variable_declarator") continue;
    const value = child.childForFieldName("value");
    if (value && FUNCTION_VALUES.has(value.type)) {
      return child.childForFieldName("name")?.text ?? null;
    }
  }
  return null;
}

/** The name a definition declares, as a reader would write it; "" when it has none. */
export function nameOf(node: Node): string {
  const name = node.childForFieldName("name");
  if (name) return clip(name.text);
  switch (node.type) {
    case "impl_item": {
      const type = node.childForFieldName("type")?.text ?? "";
      const trait = node.childForFieldName("trait")?.text;
      return clip(trait ? `${trait} for ${type}` : type);
    }
    case "type_declaration": {
      const spec = node.namedChildren.find(
        (child) => child.type === "type_spec" || child.type === "type_alias",
      );
      return clip(spec?.childForFieldName("name")?.text ?? "");
    }
    default:
      return clip(declaratorName(node));
  }
}

/** C and C++ put names inside declarators: `int (*name)(void)`, `Foo::bar(int)`. */
function declaratorName(node: Node): string {
  let current: Node | null = node.childForFieldName("declarator");
  for (let depth = 0; current && depth < 8; depth++) {
    if (
      current.type.endsWith("identifier") ||
      current.type === "operator_name" ||
      current.type === "destructor_name"
    ) {
      return current.text;
    }
    current =
      current.childForFieldName("declarator") ??
      current.namedChildren.find(
        (child) => child.type.endsWith("identifier") || child.type.endsWith("declarator"),
      ) ??
      null;
  }
  return "";
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > MAX_NAME_LENGTH ? oneLine.slice(0, MAX_NAME_LENGTH) : oneLine;
}
