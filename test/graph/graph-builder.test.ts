import { describe, expect, it } from "vitest";
import type { GraphDefinition, GraphFileRecord, GraphReference } from "../../src/core/graph.js";
import { CodeGraph } from "../../src/graph/code-graph.js";

function file(
  path: string,
  language: string,
  definitions: [name: string, kind: GraphDefinition["kind"], start: number, end: number][],
  references: GraphReference[],
): GraphFileRecord {
  return {
    resourceId: "r",
    path,
    language,
    definitions: definitions.map(([name, kind, startLine, endLine]) => ({
      name,
      kind,
      startLine,
      endLine,
      parent: "",
      signature: "",
    })),
    references,
    imports: [],
  };
}

/** Whether the graph has an edge from the definition `from` to the definition `to`. */
function leads(graph: CodeGraph, from: string, to: string): boolean {
  const source = graph.definitionsNamed(from)[0] ?? -1;
  const target = graph.definitionsNamed(to)[0] ?? -1;
  const { offsets, targets } = graph.uses;
  return [...targets.slice(offsets[source], offsets[source + 1])].includes(target);
}

describe("resolving references by name alone", () => {
  it("leads a call made on something to the one method of that name, but not a bare call where names come through imports", () => {
    const graph = CodeGraph.fromRecords([
      // A hook object's method, as node:module's registerHooks({ resolve(…) {…} }) takes.
      file("bench/hooks.mjs", "javascript", [["resolve", "method", 2, 4]], []),
      // `new Promise((resolve) => … resolve())`: the callback, not that method.
      file(
        "src/wait.ts",
        "typescript",
        [["wait", "function", 1, 3]],
        [{ name: "resolve", kind: "call", lines: [2] }],
      ),
      file(
        "src/loader.ts",
        "typescript",
        [["load", "function", 1, 3]],
        [{ name: "resolve", kind: "call", lines: [2], member: true }],
      ),
      // Go reaches a package's names without importing each file: a bare call is enough.
      file("pkg/a.go", "go", [["Helper", "function", 1, 3]], []),
      file(
        "pkg/b.go",
        "go",
        [["Run", "function", 1, 3]],
        [{ name: "Helper", kind: "call", lines: [2] }],
      ),
    ]);
    expect(leads(graph, "wait", "resolve")).toBe(false);
    expect(leads(graph, "load", "resolve")).toBe(true);
    expect(leads(graph, "Run", "Helper")).toBe(true);
  });

  it("leads a use only to definitions in languages that can name each other, and not to extensions of a type defined elsewhere", () => {
    const graph = CodeGraph.fromRecords([
      // A JNI wrapper named as Java's collection: not what Kotlin's `List` means.
      file("android/cpp/Collections.h", "cpp", [["List", "class", 1, 9]], []),
      file(
        "android/cpp/Bridge.cpp",
        "cpp",
        [["convert", "function", 1, 5]],
        [{ name: "List", kind: "type", lines: [2] }],
      ),
      file(
        "android/kotlin/Modules.kt",
        "kotlin",
        [["modules", "function", 1, 5]],
        [
          { name: "List", kind: "type", lines: [2] },
          { name: "Registry", kind: "type", lines: [3] },
        ],
      ),
      // Java and Kotlin name each other's classes.
      file("android/java/Registry.java", "java", [["Registry", "class", 1, 20]], []),
      // Swift's `extension Int`: a use of Int elsewhere is the standard type's.
      file("ios/Int+Argument.swift", "swift", [["Int", "impl", 1, 5]], []),
      file("ios/Point.swift", "swift", [["Point", "class", 1, 9]], []),
      file("ios/Point+Codable.swift", "swift", [["Point", "impl", 1, 9]], []),
      file(
        "ios/Module.swift",
        "swift",
        [["module", "function", 1, 5]],
        [
          { name: "Int", kind: "type", lines: [2] },
          { name: "Point", kind: "type", lines: [3] },
        ],
      ),
    ]);
    expect(leads(graph, "convert", "List")).toBe(true);
    expect(leads(graph, "modules", "List")).toBe(false);
    expect(leads(graph, "modules", "Registry")).toBe(true);
    expect(leads(graph, "module", "Int")).toBe(false);
    expect(leads(graph, "module", "Point")).toBe(true);
  });
});
