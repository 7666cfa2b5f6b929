import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { GraphDefinition } from "../../src/core/graph.js";
import { DocumentChunker } from "../../src/ingest/chunk/chunk-document.js";
import { DEFAULT_CHUNK_LIMITS } from "../../src/ingest/chunk/chunk-limits.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";

/** Standard-library modules: real Python of many shapes (decorators, nested defs, long signatures). */
const MODULES = [
  "argparse.py",
  "dataclasses.py",
  "json/decoder.py",
  "logging/__init__.py",
  "http/client.py",
  "email/message.py",
  "textwrap.py",
  "configparser.py",
  "functools.py",
  "pathlib.py",
];

/** What Python's own `ast` says each module defines: name, owning class or function, lines, parameter names. */
const ORACLE = `
import ast, json, sys
out = {}
for path in sys.argv[1:]:
    tree = ast.parse(open(path, encoding="utf-8").read())
    found = []
    def visit(node, parent):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                start = min([child.lineno] + [d.lineno for d in child.decorator_list])
                params = []
                if not isinstance(child, ast.ClassDef):
                    a = child.args
                    params = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
                    params += [p.arg for p in (a.vararg, a.kwarg) if p]
                found.append({"name": child.name, "parent": parent, "start": start,
                              "end": child.end_lineno, "params": params})
                visit(child, child.name)
            else:
                visit(child, parent)
    visit(tree, "")
    out[path] = found
print(json.dumps(out))
`;

function python(args: string[]): string | null {
  const result = spawnSync("python3", args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return result.status === 0 ? result.stdout : null;
}

const stdlib = python(["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"])?.trim();

describe.skipIf(!stdlib)("Python definitions against Python's own ast", () => {
  it("agree on ten standard-library modules: every definition, its owner, its lines and every parameter in its signature", async () => {
    const paths = MODULES.map((module) => join(stdlib as string, module));
    const oracle = JSON.parse(python(["-c", ORACLE, ...paths]) ?? "{}") as Record<
      string,
      { name: string; parent: string; start: number; end: number; params: string[] }[]
    >;
    const chunker = new DocumentChunker(DEFAULT_CHUNK_LIMITS, o200kCounter);
    let expected = 0;
    let found = 0;
    let ours = 0;
    let parametersShown = 0;
    let parameters = 0;
    const misses: string[] = [];
    for (const path of paths) {
      const text = readFileSync(path, "utf8");
      const lines = text.split("\n");
      // tree-sitter keeps a block's trailing comments in it; ast ends at its last statement.
      const sameEnd = (ours: number, truth: number) =>
        ours >= truth && lines.slice(truth, ours).every((line) => /^\s*(#.*)?$/.test(line));
      const { graph } = await chunker.chunk(path.slice(stdlib?.length), text);
      const definitions = (graph?.definitions ?? []).filter(
        (definition) => definition.kind !== "constant",
      );
      ours += definitions.length;
      const byKey = new Map<string, GraphDefinition>(
        definitions.map((definition) => [`${definition.name}@${definition.startLine}`, definition]),
      );
      for (const truth of oracle[path] ?? []) {
        expected++;
        const match = byKey.get(`${truth.name}@${truth.start}`);
        if (!match || !sameEnd(match.endLine, truth.end) || match.parent !== truth.parent) {
          misses.push(`${path}:${truth.start} ${truth.parent}.${truth.name}`);
          continue;
        }
        found++;
        for (const param of truth.params) {
          parameters++;
          if (new RegExp(`\\b${param}\\b`).test(match.signature)) parametersShown++;
        }
      }
    }
    const precision = found / ours;
    const recall = found / expected;
    console.log(
      `Python definitions vs ast on ${MODULES.length} modules: precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} (${found} of ${expected}); parameters in signatures ${parametersShown} of ${parameters}`,
    );
    expect(misses.slice(0, 10)).toEqual([]);
    expect(precision).toBeGreaterThanOrEqual(0.99);
    expect(recall).toBeGreaterThanOrEqual(0.99);
    expect(parametersShown / parameters).toBeGreaterThanOrEqual(0.99);
  });
});
