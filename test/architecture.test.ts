import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

function importsOf(dir: string): { file: string; specifier: string }[] {
  const found: { file: string; specifier: string }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const file = join(entry.parentPath, entry.name);
    for (const match of readFileSync(file, "utf8").matchAll(/from\s+"([^"]+)"/g)) {
      found.push({ file, specifier: match[1] as string });
    }
  }
  return found;
}

describe("layering", () => {
  it("core depends on nothing but itself: no adapter, CLI, engine or library import", () => {
    const outside = importsOf(join(SRC, "core")).filter(
      ({ specifier }) => !specifier.startsWith("./") && !specifier.startsWith("node:"),
    );
    expect(outside).toEqual([]);
  });

  it("only the engine and the CLI pick adapters (SQLite and PostgreSQL stores, worker threads)", () => {
    const adapterImports = importsOf(SRC).filter(
      ({ file, specifier }) =>
        /store\/(sqlite|postgres)\//.test(specifier) &&
        !file.includes(`${join(SRC, "store", "sqlite")}`) &&
        !file.includes(`${join(SRC, "store", "postgres")}`) &&
        !file.includes(`${join(SRC, "engine")}`) &&
        !file.includes(`${join(SRC, "cli")}`) &&
        !file.endsWith("index.ts"),
    );
    expect(adapterImports).toEqual([]);
  });
});

describe("start-up", () => {
  it("importing the library does not load the PostgreSQL driver (about 70 ms) until a postgres:// index is opened", async () => {
    const { execFileSync } = await import("node:child_process");
    const entry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
    const script = `
      await import(${JSON.stringify(entry)});
      const { createRequire } = await import("node:module");
      const loaded = Object.keys(createRequire(import.meta.url)("node:module")._cache);
      console.log(JSON.stringify(loaded.filter((file) => /node_modules[\\\\/]pg[\\\\/]/.test(file))));
    `;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect(JSON.parse(output)).toEqual([]);
  });
});

/** Each source file's imports of other source files: static, type-only, re-exports and `import()`. */
function sourceImports(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const entry of readdirSync(SRC, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const file = join(entry.parentPath, entry.name);
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
    const targets: string[] = [];
    const visit = (node: ts.Node): void => {
      const specifier =
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
          ? node.moduleSpecifier
          : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
            ? node.arguments[0]
            : undefined;
      if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith(".")) {
        targets.push(resolve(dirname(file), specifier.text.replace(/\.js$/, ".ts")));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    graph.set(file, targets);
  }
  return graph;
}

/** The groups of nodes that reach each other (Tarjan), each of more than one node. */
function cyclesOf(nodes: readonly string[], next: (node: string) => readonly string[]): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    order.set(node, order.size);
    low.set(node, order.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const other of next(node)) {
      if (!order.has(other)) {
        visit(other);
        low.set(node, Math.min(low.get(node) as number, low.get(other) as number));
      } else if (onStack.has(other)) {
        low.set(node, Math.min(low.get(node) as number, order.get(other) as number));
      }
    }
    if (low.get(node) !== order.get(node)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of nodes) if (!order.has(node)) visit(node);
  return groups;
}

/** The top folder of src a file is in; a file directly in src stands for itself. */
function areaOf(file: string): string {
  const [first, ...rest] = relative(SRC, file).split(sep);
  return rest.length > 0 ? (first as string) : relative(SRC, file);
}

describe("no import cycles", () => {
  const graph = sourceImports();

  it("between files, type imports included", () => {
    const cycles = cyclesOf([...graph.keys()], (file) =>
      (graph.get(file) ?? []).filter((target) => graph.has(target)),
    );
    expect(cycles.map((cycle) => cycle.map((file) => relative(SRC, file)))).toEqual([]);
  });

  // Features own their settings and config composes them; parsing sits below chunking and
  // the graph; the engine above the features, the CLI and MCP server above the engine.
  it("between src's folders, type imports included", () => {
    const edges = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const from = areaOf(file);
      const areas = edges.get(from) ?? new Set<string>();
      for (const target of targets) if (areaOf(target) !== from) areas.add(areaOf(target));
      edges.set(from, areas);
    }
    // The library's entry point re-exports every layer: it is the top, not part of one.
    edges.delete("index.ts");
    const cycles = cyclesOf([...edges.keys()], (area) => [...(edges.get(area) ?? [])]);
    expect(cycles).toEqual([]);
  });
});
