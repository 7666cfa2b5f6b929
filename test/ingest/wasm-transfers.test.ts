import { describe, expect, it } from "vitest";
import { initializeTreeSitter, parserFor } from "../../src/parse/tree-sitter-loader.js";
import { shortcutTransfers } from "../../src/parse/wasm-transfers.js";

describe("tree-sitter node transfers", () => {
  it("take the shortcut with the web-tree-sitter this project pins", async () => {
    // False would mean an upgrade changed the module's shape and every parse pays the slow path again.
    expect(await initializeTreeSitter()).toBe(true);
  });

  it("read nodes right before and after the WebAssembly memory grows", async () => {
    const parser = await parserFor("javascript");
    if (!parser) throw new Error("no JavaScript parser");
    const small = "function a() {}\nconst b = a();\n";
    const before = parser.parse(small);
    if (!before) throw new Error("no tree");
    const calls = before.rootNode.descendantsOfType("call_expression");
    expect(calls.map((node) => [node.type, node.startIndex, node.startPosition.row])).toEqual([
      ["call_expression", 26, 1],
    ]);
    // About a million nodes: far past the module's first 32 MB, so its memory (and views) are replaced.
    const lines = 200_000;
    const large = "x(y, z);\n".repeat(lines);
    const grown = parser.parse(large);
    if (!grown) throw new Error("no tree");
    const last = grown.rootNode.lastNamedChild;
    expect(last?.type).toBe("expression_statement");
    expect(last?.startIndex).toBe((lines - 1) * 9);
    expect(last?.startPosition).toEqual({ row: lines - 1, column: 0 });
    expect(last?.firstNamedChild?.childForFieldName("function")?.text).toBe("x");
    grown.delete();
    const again = before.rootNode.descendantsOfType("identifier").map((node) => node.text);
    expect(again).toEqual(["a", "b", "a"]);
    before.delete();
  });

  it("leave a module that does not look like emscripten's as it is", () => {
    const getValue = () => 0;
    const module: Record<string, unknown> = { getValue, HEAP32: new Int32Array(4) };
    expect(shortcutTransfers(module)).toBe(false);
    expect(module.getValue).toBe(getValue);
  });
});
