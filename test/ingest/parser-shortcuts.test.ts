import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import {
  initializeTreeSitter,
  parserFor,
  parserShortcutsAllowed,
} from "../../src/parse/tree-sitter-loader.js";
import { shortcutTransfers } from "../../src/parse/wasm-transfers.js";

const FIXTURES = resolve("test/fixtures/code");
const DIST = resolve("dist");

/**
 * The code graph of every fixture file, extracted by the built code in a
 * process of its own (the shortcuts are set once per process), with the
 * environment given; and whether the shortcuts were in place.
 */
function graphsInChildProcess(env: Record<string, string>): {
  shortcuts: boolean;
  graphs: Record<string, unknown>;
} {
  const url = (path: string) => pathToFileURL(join(DIST, path)).href;
  const script = `
    import { readFileSync } from "node:fs";
    import { languageOf } from "${url("languages/registry.js")}";
    import { initializeTreeSitter, parserFor } from "${url("parse/tree-sitter-loader.js")}";
    import { extractGraph } from "${url("graph/extract-graph.js")}";
    const shortcuts = await initializeTreeSitter();
    const graphs = {};
    for (const name of ${JSON.stringify(readdirSync(FIXTURES).sort())}) {
      const source = readFileSync(${JSON.stringify(FIXTURES)} + "/" + name, "utf8");
      const language = languageOf(name, source);
      const parser = parserFor(language);
      if (!parser) continue;
      const tree = (await parser).parse(source);
      graphs[name] = extractGraph(tree.rootNode, language, name, source);
      tree.delete();
    }
    process.stdout.write(JSON.stringify({ shortcuts, graphs }));
  `;
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  return JSON.parse(output) as { shortcuts: boolean; graphs: Record<string, unknown> };
}

describe("the parser shortcuts (private web-tree-sitter functions)", () => {
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

  it("are taken only with the web-tree-sitter release they were checked against", () => {
    expect(parserShortcutsAllowed("0.27.2")).toBe(true);
    expect(parserShortcutsAllowed("0.28.0")).toBe(false);
    expect(parserShortcutsAllowed("")).toBe(false);
  });

  it("give the code graph the library's own paths give, which run when they are off", () => {
    const fast = graphsInChildProcess({});
    const plain = graphsInChildProcess({ CTX_PARSER_SHORTCUTS: "0" });
    expect([fast.shortcuts, plain.shortcuts]).toEqual([true, false]);
    expect(Object.keys(plain.graphs).length).toBeGreaterThanOrEqual(10);
    expect(plain.graphs).toEqual(fast.graphs);
  });

  it("leave a module that does not look like emscripten's as it is", () => {
    const getValue = () => 0;
    const module: Record<string, unknown> = { getValue, HEAP32: new Int32Array(4) };
    expect(shortcutTransfers(module)).toBe(false);
    expect(module.getValue).toBe(getValue);
  });
});
