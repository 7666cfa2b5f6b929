import { describe, expect, it } from "vitest";
import {
  nodeSearchEnabled,
  SearchedTypes,
  searchNodes,
  searchNodesWithLibrary,
} from "../../src/parse/node-search.js";
import { initializeTreeSitter, parserFor } from "../../src/parse/tree-sitter-loader.js";

async function parse(language: string, source: string) {
  const parser = await parserFor(language);
  const tree = parser?.parse(source);
  if (!tree) throw new Error(`no ${language} tree`);
  return tree;
}

describe("the code graph's node search", () => {
  it("reads the search's results itself with the web-tree-sitter this project pins", async () => {
    await initializeTreeSitter();
    // False would mean an upgrade changed the module and every name costs a Node object again.
    expect(nodeSearchEnabled()).toBe(true);
  });

  it("finds what the library's own search finds, in the same order, with working nodes", async () => {
    const source = [
      'import { join } from "node:path";',
      "class Shape extends Base {",
      "  area() { return this.width * height(join); }",
      "}",
      "const ß = { shorthand, key: value };",
      "export function scale(shape) { return new Shape(shape); }",
    ].join("\n");
    const tree = await parse("javascript", source);
    const names = [
      "identifier",
      "property_identifier",
      "shorthand_property_identifier",
      "class_declaration",
      "method_definition",
      "function_declaration",
      "import_statement",
      "class_heritage",
    ];
    const types = new SearchedTypes(tree.language, names);
    const found = searchNodes(tree.rootNode, types);
    const expected = tree.rootNode.descendantsOfType(names);
    expect(found.count).toBe(expected.length);
    for (let index = 0; index < found.count; index++) {
      const node = expected[index];
      if (!node) throw new Error("missing node");
      expect([
        types.typeName(found.typeId(index)),
        found.startIndex(index),
        found.row(index),
      ]).toEqual([node.type, node.startIndex, node.startPosition.row]);
      const made = found.node(index);
      expect([made.type, made.text, made.endIndex, made.parent?.type]).toEqual([
        node.type,
        node.text,
        node.endIndex,
        node.parent?.type,
      ]);
    }
    // Indexes count UTF-16 units, as the source string does (`ß` is two bytes in UTF-8).
    const scale = found.node(
      [...Array(found.count).keys()].findLast(
        (index) => types.typeName(found.typeId(index)) === "function_declaration",
      ) ?? -1,
    );
    expect(source.slice(scale.startIndex, scale.startIndex + 15)).toBe("function scale(");
    expect(scale.childForFieldName("name")?.text).toBe("scale");
    tree.delete();
  });

  it("reads a search of 600,000 matches, its results copied out before they are freed", async () => {
    const lines = 150_000;
    const tree = await parse("javascript", "x(y, z);\n".repeat(lines));
    const types = new SearchedTypes(tree.language, ["identifier", "call_expression"]);
    const found = searchNodes(tree.rootNode, types);
    expect(found.count).toBe(lines * 4);
    const last = found.count - 1;
    expect([types.typeName(found.typeId(last)), found.startIndex(last), found.row(last)]).toEqual([
      "identifier",
      (lines - 1) * 9 + 5,
      lines - 1,
    ]);
    expect(found.node(last).text).toBe("z");
    tree.delete();
  });

  it("answers the same through the library's search, the way taken when the module is not as expected", async () => {
    const tree = await parse(
      "python",
      "import os\n\nclass A(B):\n    def run(self):\n        return os.path.join(self.x)\n",
    );
    const types = new SearchedTypes(tree.language, [
      "identifier",
      "class_definition",
      "import_statement",
    ]);
    const fields = (found: ReturnType<typeof searchNodes>) =>
      [...Array(found.count).keys()].map((index) => [
        types.typeName(found.typeId(index)),
        found.startIndex(index),
        found.row(index),
        found.node(index).text,
      ]);
    const direct = fields(searchNodes(tree.rootNode, types));
    expect(direct.length).toBe(12);
    expect(fields(searchNodesWithLibrary(tree.rootNode, types))).toEqual(direct);
    tree.delete();
  });

  it("finds nothing for types the grammar does not have", async () => {
    const tree = await parse("python", "def f():\n    return 1\n");
    const found = searchNodes(tree.rootNode, new SearchedTypes(tree.language, ["no_such_type"]));
    expect(found.count).toBe(0);
    tree.delete();
  });
});
