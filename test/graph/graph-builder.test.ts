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

  it("reads the parts of a C# partial type as one definition, however many files hold them", () => {
    const part = (path: string, extra: GraphDefinition[] = []): GraphFileRecord => ({
      resourceId: "r",
      path,
      language: "csharp",
      definitions: [
        {
          name: "OutcomePredicate",
          kind: "class",
          startLine: 3,
          endLine: 40,
          parent: "",
          signature: "public sealed partial class OutcomePredicate<TResult>",
        },
        ...extra,
      ],
      references: [],
      imports: [],
    });
    const ctor: GraphDefinition = {
      name: "OutcomePredicate",
      kind: "method",
      startLine: 5,
      endLine: 9,
      parent: "OutcomePredicate",
      signature: "public OutcomePredicate()",
    };
    const user = (path: string, name: string): GraphFileRecord =>
      file(path, "csharp", [["Use", "class", 1, 9]], [{ name, kind: "type", lines: [4] }]);
    const graph = CodeGraph.fromRecords([
      part("src/Strategy/OutcomePredicate.cs", [ctor]),
      part("src/Strategy/OutcomePredicate.TResult.cs", [{ ...ctor, startLine: 12, endLine: 14 }]),
      part("src/Strategy/OutcomePredicate.Void.cs"),
      part("src/Strategy/OutcomePredicate.Handler.cs"),
      // In the same namespace: no `using` names the folder, so the name alone leads.
      user("src/Strategy/RetryOptions.cs", "OutcomePredicate"),
      // Four classes of one name that are not one type say nothing of which one a use means.
      // A Python class named `partial` is no part of anything.
      ...[1, 2, 3, 4].map((n) => ({
        ...file(`lib/p${n}.py`, "python", [["partial", "class", 1, 9]], []),
        definitions: [
          {
            name: "partial",
            kind: "class" as const,
            startLine: 1,
            endLine: 9,
            parent: "",
            signature: "class partial:",
          },
        ],
      })),
      file(
        "lib/use.py",
        "python",
        [["Use", "class", 1, 9]],
        [{ name: "partial", kind: "type", lines: [4] }],
      ),
      ...[1, 2, 3, 4].map((n) =>
        file(`src/Options${n}/Options.cs`, "csharp", [["Options", "class", 1, 9]], []),
      ),
      user("src/Strategy/Builder.cs", "Options"),
    ]);
    const parts = graph
      .definitionsNamed("OutcomePredicate")
      .filter((id) => graph.nodes[id]?.kind === "class");
    expect(parts).toHaveLength(4);
    const usedBy = (path: string) => {
      const from = graph.definitionsNamed("Use").find((id) => {
        const node = graph.nodes[id];
        return node && graph.files[node.file]?.path === path;
      });
      const { offsets, targets } = graph.uses;
      return from === undefined ? [] : [...targets.slice(offsets[from], offsets[from + 1])];
    };
    expect(usedBy("src/Strategy/RetryOptions.cs")).toEqual(expect.arrayContaining(parts));
    const named = (ids: number[]) => ids.map((id) => graph.nodes[id]?.name);
    expect(named(usedBy("src/Strategy/Builder.cs"))).not.toContain("Options");
    expect(named(usedBy("lib/use.py"))).not.toContain("partial");
  });

  it("leads an import of a module with a declaration file to both the declaration and the JavaScript", () => {
    const importer = (path: string, specifier: string): GraphFileRecord => ({
      ...file(path, "javascript", [], []),
      imports: [
        {
          specifier,
          line: 1,
          names: [],
          targets: [{ path: `src/${specifier.slice(2)}`, match: "module" }],
          reexport: false,
        },
      ],
    });
    const graph = CodeGraph.fromRecords([
      file("src/index.d.ts", "typescript", [["render", "function", 1, 3]], []),
      file("src/index.js", "javascript", [["render", "function", 1, 9]], []),
      file("src/types.d.ts", "typescript", [["Options", "type", 1, 3]], []),
      importer("src/app.js", "./index"),
      importer("src/main.js", "./index.js"),
      importer("src/card.js", "./types"),
    ]);
    const imported = (path: string) => {
      const from = graph.files.find((f) => f.path === path)?.node ?? -1;
      const { offsets, targets } = graph.uses;
      return [...targets.slice(offsets[from], offsets[from + 1])]
        .map((id) => graph.nodes[id])
        .filter((node) => node?.kind === "file")
        .map((node) => node?.name)
        .sort();
    };
    expect(imported("src/app.js")).toEqual(["src/index.d.ts", "src/index.js"]);
    expect(imported("src/main.js")).toEqual(["src/index.d.ts", "src/index.js"]);
    // Types with no JavaScript of their own.
    expect(imported("src/card.js")).toEqual(["src/types.d.ts"]);
  });

  it("leads a name a Python package's __init__.py imports to the module that defines it", () => {
    const withImports = (
      record: GraphFileRecord,
      imports: [specifier: string, names: string[], targets: string[]][],
    ): GraphFileRecord => ({
      ...record,
      imports: imports.map(([specifier, names, targets]) => ({
        specifier,
        line: 1,
        names,
        targets: targets.map((path) => ({ path, match: "exact" as const })),
        reexport: false,
      })),
    });
    const graph = CodeGraph.fromRecords([
      withImports(file("pkg/__init__.py", "python", [], []), [
        [".sessions", ["Session"], ["pkg/sessions.py", "pkg/sessions/__init__.py"]],
      ]),
      file("pkg/sessions.py", "python", [["Session", "class", 1, 30]], []),
      // Not imported by the package: a use of its name leads nowhere.
      file("pkg/other.py", "python", [["Adapter", "class", 1, 30]], []),
      withImports(
        file(
          "app.py",
          "python",
          [["main", "function", 1, 9]],
          [
            { name: "Session", kind: "call", lines: [3] },
            { name: "Adapter", kind: "call", lines: [4] },
          ],
        ),
        [["pkg", ["Session", "Adapter"], ["pkg.py", "pkg/__init__.py"]]],
      ),
    ]);
    expect(leads(graph, "main", "Session")).toBe(true);
    expect(leads(graph, "main", "Adapter")).toBe(false);
  });
});
