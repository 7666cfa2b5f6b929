import type { Node } from "web-tree-sitter";

/** The text of a node's `name` field, "" without one. */
export function nameField(node: Node): string {
  return node.childForFieldName("name")?.text ?? "";
}

/** The text of a node's first named child of one of these types, "" without one. */
export function childText(node: Node, types: ReadonlySet<string>): string {
  return node.namedChildren.find((child) => types.has(child.type))?.text ?? "";
}
