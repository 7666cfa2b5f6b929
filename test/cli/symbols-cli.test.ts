import { existsSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { indexedMcpClient } from "../helpers/mcp-client.js";
import { runCli, spawnCli } from "../helpers/run-cli.js";
import { git, gitRepo } from "../helpers/temp-dir.js";

const FILES = {
  "src/config.ts":
    'export interface Settings { retries: number }\n\nexport function parseConfig(text: string): Settings {\n  return JSON.parse(text);\n}\n\nexport const DEFAULTS = parseConfig("{}");\n',
  "src/app.ts":
    'import { parseConfig, type Settings } from "./config.js";\n\nexport class App {\n  settings: Settings;\n  constructor(text: string) {\n    this.settings = parseConfig(text);\n  }\n}\n',
  "src/legacy/config.ts":
    'export function parseConfig(text: string) {\n  return text.split("=");\n}\n',
  "src/legacy/use.ts": 'import { parseConfig } from "./config";\n\nparseConfig("a=b");\n',
  "src/report.ts":
    'import { helper } from "./util";\n\nexport function report() {\n  return helper(1);\n}\n\n/**\n * Totals the rows of a report. Empty rows count as zero.\n */\nexport function total(rows: number[]) {\n  return rows.length;\n}\n',
};

interface Refs {
  symbol: string;
  definitions: {
    path: string;
    startLine: number;
    endLine: number;
    kind: string;
    signature: string;
  }[];
  references: { path: string; line: number; kind: string }[];
}

function refs(root: string, ...args: string[]): Refs {
  const result = runCli(["refs", ...args, "--json"], root);
  const found = JSON.parse(result.stdout) as Refs;
  // As grep: 1 when it finds nothing, with the (empty) JSON all the same.
  const empty = found.definitions.length === 0 && found.references.length === 0;
  expect(result.code, result.stderr).toBe(empty ? 1 : 0);
  return found;
}

describe("ctx symbols and ctx refs", () => {
  it("find definitions by name and kind, and the uses that resolve to one definition", () => {
    const root = gitRepo(FILES);
    const symbols = runCli(["symbols", "parseconfig", "--json"], root);
    expect(symbols.code, symbols.stderr).toBe(0);
    const found = JSON.parse(symbols.stdout) as { definitions: { path: string; kind: string }[] };
    expect(found.definitions.map((d) => `${d.kind} ${d.path}`)).toEqual([
      "function src/config.ts",
      "function src/legacy/config.ts",
    ]);
    // With the doc comment above a definition ("" where there is none), in JSON and text.
    const documented = JSON.parse(runCli(["symbols", "total", "--json"], root).stdout);
    expect(documented.definitions).toMatchObject([
      { name: "total", doc: "Totals the rows of a report. Empty rows count as zero." },
    ]);
    expect(
      JSON.parse(runCli(["symbols", "report", "--json"], root).stdout).definitions,
    ).toMatchObject([{ name: "report", doc: "" }]);
    expect(runCli(["symbols", "total"], root).stdout).toBe(
      "src/report.ts:10-12 function total\n   function total(rows: number[])\n   Totals the rows of a report.\n",
    );
    const classes = JSON.parse(
      runCli(["symbols", "App", "--kind", "class", "--json"], root).stdout,
    );
    expect(classes.definitions).toMatchObject([{ name: "App", path: "src/app.ts", startLine: 3 }]);

    const all = refs(root, "parseConfig");
    expect(all.definitions.map((d) => d.path)).toEqual(["src/config.ts", "src/legacy/config.ts"]);
    expect(all.references.map((r) => `${r.path}:${r.line} ${r.kind}`)).toEqual([
      "src/app.ts:1 import",
      "src/app.ts:6 call",
      "src/config.ts:7 call",
      "src/legacy/use.ts:1 import",
      "src/legacy/use.ts:3 call",
    ]);
    const one = refs(root, "parseConfig", "--path", "src/config.ts");
    expect(one).toEqual({
      symbol: "parseConfig",
      definitions: [
        {
          path: "src/config.ts",
          startLine: 3,
          endLine: 5,
          kind: "function",
          signature: "function parseConfig(text: string): Settings",
        },
      ],
      references: [
        { path: "src/app.ts", line: 1, kind: "import" },
        { path: "src/app.ts", line: 6, kind: "call" },
        { path: "src/config.ts", line: 7, kind: "call" },
      ],
    });
    expect(refs(root, "Settings", "--path", "src/config.ts").references).toEqual([
      { path: "src/app.ts", line: 1, kind: "import" },
      { path: "src/app.ts", line: 4, kind: "type" },
      { path: "src/config.ts", line: 3, kind: "type" },
    ]);
    const text = runCli(["refs", "parseConfig", "--path", "src/legacy/config.ts"], root).stdout;
    expect(text).toBe(
      "Definitions of parseConfig (1):\n  src/legacy/config.ts:1-3 function  function parseConfig(text: string)\nReferences (2):\n  src/legacy/use.ts:1 import\n  src/legacy/use.ts:3 call\n",
    );
  });

  it("follows edits: a renamed function's old uses go, and uses in unchanged files resolve to a new file", () => {
    const root = gitRepo(FILES);
    expect(refs(root, "helper", "--path", "src/util.ts").definitions).toEqual([]);
    writeFileSync(
      join(root, "src/util.ts"),
      "export function helper(n: number) {\n  return n;\n}\n",
    );
    const resolved = refs(root, "helper", "--path", "src/util.ts");
    expect(resolved.definitions.map((d) => d.path)).toEqual(["src/util.ts"]);
    expect(resolved.references).toEqual([
      { path: "src/report.ts", line: 1, kind: "import" },
      { path: "src/report.ts", line: 4, kind: "call" },
    ]);

    writeFileSync(
      join(root, "src/config.ts"),
      "export interface Settings { retries: number }\n\nexport function loadConfig(text: string): Settings {\n  return JSON.parse(text);\n}\n",
    );
    expect(refs(root, "parseConfig", "--path", "src/config.ts")).toEqual({
      symbol: "parseConfig",
      definitions: [],
      references: [],
    });
    expect(refs(root, "loadConfig").definitions.map((d) => d.path)).toEqual(["src/config.ts"]);
    // app.ts still imports parseConfig from ./config.js, where it is gone: it is no use of the
    // legacy one, though that is now the only parseConfig (TypeScript sees names through imports).
    expect(
      refs(root, "parseConfig", "--path", "src/legacy/config.ts").references.map((r) => r.path),
    ).toEqual(["src/legacy/use.ts", "src/legacy/use.ts"]);
    // Unresolved, it is still listed under the name.
    expect(refs(root, "parseConfig").references.map((r) => r.path)).toContain("src/app.ts");

    rmSync(join(root, "src/util.ts"));
    git(root, "add", "--all");
    expect(refs(root, "helper").definitions).toEqual([]);
  });

  it("find a method by the name they show it under, Owner.name (or Owner::name)", () => {
    const root = gitRepo({
      "src/jobs.ts":
        "export class Queue {\n  start() {\n    return 1;\n  }\n}\n\nexport class Timer {\n  start() {\n    return 2;\n  }\n}\n",
      "src/run.ts": 'import { Queue } from "./jobs";\n\nnew Queue().start();\n',
    });
    expect(runCli(["symbols", "Queue.start"], root).stdout).toBe(
      "src/jobs.ts:2-4 method Queue.start\n   start()\n",
    );
    const json = JSON.parse(runCli(["symbols", "timer::START", "--json"], root).stdout);
    expect(json.definitions).toMatchObject([{ name: "start", parent: "Timer", startLine: 8 }]);
    // An owner that defines no such member: where the member is defined instead.
    expect(runCli(["symbols", "Clock.start"], root).stdout).toBe(
      'No definition named "Clock.start". "start" is defined as Queue.start (src/jobs.ts:2), Timer.start (src/jobs.ts:8): `ctx symbols start` lists them.\n',
    );
    expect(runCli(["symbols", "Clock.stop"], root).stdout).toBe(
      'No definition named "Clock.stop".\n',
    );
    // A method's uses come by name, and the output says so and how to narrow them.
    expect(runCli(["refs", "Queue.start"], root).stdout).toBe(
      "Definitions of Queue.start (1):\n  src/jobs.ts:2-4 method  start()\nReferences (1, by name: a call of that name on any object counts; --path src/jobs.ts keeps those that resolve to its definition):\n  src/run.ts:3 call\n",
    );
  });

  it("find a Rust method by its type or its trait, whatever the impl's type arguments", () => {
    const root = gitRepo({
      "src/geo.rs":
        "pub trait Shape {\n    fn area(&self) -> f64;\n}\npub struct Square;\nimpl Shape for Square {\n    fn area(&self) -> f64 { 1.0 }\n}\npub struct Stack<T> { items: Vec<T> }\nimpl<T> Stack<T> {\n    pub fn push(&mut self, v: T) { self.items.push(v) }\n}\n",
    });
    expect(runCli(["symbols", "Square::area"], root).stdout).toBe(
      "src/geo.rs:6-6 method Shape for Square.area\n   fn area(&self) -> f64\n",
    );
    const byTrait = JSON.parse(runCli(["symbols", "Shape::area", "--json"], root).stdout);
    expect(byTrait.definitions.map((d: { startLine: number }) => d.startLine)).toEqual([2, 6]);
    expect(runCli(["symbols", "Stack::push"], root).stdout).toMatch(/^src\/geo.rs:10-10 method/);
  });

  it("says when nothing is found, and refuses an unknown kind", () => {
    const root = gitRepo(FILES);
    const none = runCli(["symbols", "nothingLikeThis"], root);
    expect(none.stdout).toBe('No definition named "nothingLikeThis".\n');
    expect(none.code).toBe(1);
    expect(runCli(["refs", "nothingLikeThis"], root).code).toBe(1);
    const bad = runCli(["symbols", "App", "--kind", "widget"], root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^ctx: unknown symbol kind "widget"; use one of: function, method/);
  });
});

describe("tsconfig paths", () => {
  it("resolve aliased imports, and a changed tsconfig re-reads the files that use them", () => {
    const root = gitRepo({
      "tsconfig.json": '{ "compilerOptions": { "paths": { "@lib/*": ["src/lib/*"] } } }\n',
      "src/lib/math.ts": "export function clamp(n: number) {\n  return Math.max(0, n);\n}\n",
      "src/other/math.ts": "export function clamp(n: number) {\n  return n;\n}\n",
      "src/main.ts": 'import { clamp } from "@lib/math";\n\nclamp(2);\n',
    });
    expect(refs(root, "clamp", "--path", "src/lib/math.ts").references).toEqual([
      { path: "src/main.ts", line: 1, kind: "import" },
      { path: "src/main.ts", line: 3, kind: "call" },
    ]);
    writeFileSync(
      join(root, "tsconfig.json"),
      '{ "compilerOptions": { "paths": { "@lib/*": ["src/other/*"] } } }\n',
    );
    expect(refs(root, "clamp", "--path", "src/lib/math.ts").references).toEqual([]);
    expect(
      refs(root, "clamp", "--path", "src/other/math.ts").references.map((r) => r.path),
    ).toEqual(["src/main.ts", "src/main.ts"]);
  });
});

describe("a killed index run", () => {
  it("leaves every indexed file with its graph (kill -9 part way), and the next run completes both", async () => {
    // Each file defines one function and calls the previous file's: 500 files, ~2.5 MB.
    const files: Record<string, string> = {};
    const filler = `// ${"padding to make the file take time to index ".repeat(100)}\n`;
    for (let i = 0; i < 500; i++) {
      const previous = i === 0 ? "" : `import { step${i - 1} } from "./m${i - 1}.js";\n`;
      const call = i === 0 ? "0" : `step${i - 1}() + 1`;
      files[`src/m${i}.ts`] =
        `${previous}${filler}export function step${i}(): number {\n  return ${call};\n}\n`;
    }
    const root = gitRepo(files);
    const index = join(root, ".ctx", "index.db");
    const run = spawnCli(["index", "--contextualize", "none"], root);
    // Killed once the first batches are written.
    for (let waited = 0; waited < 20_000; waited += 20) {
      if (existsSync(index) && statSync(index).size > 200_000) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    run.process.kill("SIGKILL");
    const killed = await run.result;
    const status = () => {
      const result = runCli(["status", "--json"], root);
      expect(result.code, result.stderr).toBe(0);
      return (
        JSON.parse(result.stdout) as { store: { documents: number; graph: Record<string, number> } }
      ).store;
    };
    const partial = status();
    if (killed.code === 137) expect(partial.documents).toBeLessThan(500);
    expect(partial.graph.orphans).toBe(0);
    expect(partial.graph.definitions).toBe(partial.documents);
    const again = runCli(["index"], root);
    expect(again.code, again.stderr).toBe(0);
    const complete = status();
    expect(complete).toMatchObject({ documents: 500, graph: { definitions: 500, orphans: 0 } });
    expect(refs(root, "step41", "--path", "src/m41.ts").references).toEqual([
      { path: "src/m42.ts", line: 1, kind: "import" },
      { path: "src/m42.ts", line: 4, kind: "call" },
    ]);
  }, 60_000);
});

describe("MCP find_symbol and find_references", () => {
  it("answer through the SDK client with the CLI's shapes", async () => {
    const root = gitRepo(FILES);
    const { client, close } = await indexedMcpClient(root);
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        const part = result.content[0];
        return JSON.parse(part?.type === "text" ? part.text : "null") as unknown;
      };
      expect(await call("find_symbol", { name: "App", kind: "class" })).toMatchObject([
        { name: "App", kind: "class", path: "src/app.ts", startLine: 3, endLine: 8, parent: "" },
      ]);
      const found = (await call("find_references", {
        symbol: "parseConfig",
        path: "src/legacy/config.ts",
      })) as Refs;
      expect(found.definitions.map((d) => d.path)).toEqual(["src/legacy/config.ts"]);
      expect(found.references.map((r) => `${r.path}:${r.line} ${r.kind}`)).toEqual([
        "src/legacy/use.ts:1 import",
        "src/legacy/use.ts:3 call",
      ]);
    } finally {
      await close();
    }
  });
});
