import { describe, expect, it } from "vitest";
import type { FileGraph, ReferenceKind } from "../../src/core/graph.js";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { definitionDoc } from "../../src/graph/definition-docs.js";
import { oneLineSignature } from "../../src/graph/definition-signatures.js";
import { extractGraph } from "../../src/graph/extract-graph.js";
import { moduleFiles, targetMatches } from "../../src/languages/import-paths.js";
import { readPathAliases } from "../../src/languages/path-aliases.js";
import { importTargets } from "../../src/languages/registry.js";
import { parserFor } from "../../src/parse/tree-sitter-loader.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

async function graphOf(language: string, path: string, source: string): Promise<FileGraph> {
  const parser = await parserFor(language);
  const tree = parser?.parse(source);
  if (!tree) throw new Error(`no parser for ${language}`);
  try {
    const graph = extractGraph(tree.rootNode, language, path, source);
    if (!graph) throw new Error(`no graph reader for ${language}`);
    return graph;
  } finally {
    tree.delete();
  }
}

/** "kind name < parent" of every definition. */
const defs = (graph: FileGraph) =>
  graph.definitions.map((d) => `${d.kind} ${d.name}${d.parent ? ` < ${d.parent}` : ""}`);
const refs = (graph: FileGraph, kind: ReferenceKind) =>
  graph.references
    .filter((r) => r.kind === kind)
    .map((r) => r.name)
    .sort();
const imports = (graph: FileGraph) => graph.imports.map((i) => i.specifier);

interface Case {
  language: string;
  path: string;
  source: string;
  definitions: string[];
  calls: string[];
  types?: string[];
  inherits: string[];
  imports: string[];
}

const CASES: Case[] = [
  {
    language: "typescript",
    path: "src/net/client.ts",
    source: `import { Retry, type Policy } from "./retry.js";
import * as log from "../log";
export interface Options { policy: Policy }
export type Handler = (body: string) => void;
export enum Mode { Fast, Safe }
export const DEFAULT_TIMEOUT = 30;
export class HttpClient extends BaseClient implements Closeable {
  private retry = new Retry(3);
  async send(url: string): Promise<Response> {
    log.info(url);
    return this.retry.run(() => fetchOnce(url));
  }
}
export function fetchOnce(url: string) { return fetch(url); }
`,
    definitions: [
      "interface Options",
      "type Handler",
      "enum Mode",
      "constant DEFAULT_TIMEOUT",
      "class HttpClient",
      "method send < HttpClient",
      "function fetchOnce",
    ],
    calls: ["Retry", "fetch", "fetchOnce", "info", "run"],
    types: ["Policy", "Promise", "Response"],
    inherits: ["BaseClient", "Closeable"],
    imports: ["./retry.js", "../log"],
  },
  {
    language: "tsx",
    path: "src/App.tsx",
    source: `import { Button } from "./Button";
export function App(props: AppProps) { return <Button onClick={() => track("x")} />; }
`,
    definitions: ["function App"],
    calls: ["track"],
    types: ["AppProps"],
    inherits: [],
    imports: ["./Button"],
  },
  {
    language: "javascript",
    path: "lib/cache.js",
    source: `const { join } = require("./paths");
import Store from "./store.js";
export class LruCache extends Store {
  get(key) { return this.lookup(join(key)); }
}
export const makeCache = (size) => new LruCache(size);
`,
    definitions: ["class LruCache", "method get < LruCache", "function makeCache"],
    calls: ["LruCache", "join", "lookup"],
    inherits: ["Store"],
    imports: ["./paths", "./store.js"],
  },
  {
    language: "python",
    path: "pkg/service/api.py",
    source: `import os.path
from . import models
from ..core.base import BaseHandler, helper

class UserHandler(BaseHandler):
    def get(self, user_id: int) -> models.User:
        return helper(load_user(user_id))

def load_user(user_id):
    return os.path.join("users", str(user_id))
`,
    definitions: ["class UserHandler", "method get < UserHandler", "function load_user"],
    calls: ["helper", "join", "load_user", "str"],
    types: ["User", "int", "models"],
    inherits: ["BaseHandler"],
    imports: ["os.path", ".", "..core.base"],
  },
  {
    language: "go",
    path: "internal/store/store.go",
    source: `package store

import (
	"fmt"
	"example.com/app/internal/codec"
)

const MaxItems = 100

type Store interface { Get(key string) (Item, error) }

type MemStore struct { items map[string]Item }

func (m *MemStore) Get(key string) (Item, error) {
	return codec.Decode(m.items[key]), fmt.Errorf("x")
}

func NewMemStore() *MemStore { return &MemStore{} }
`,
    definitions: [
      "constant MaxItems",
      "interface Store",
      "method Get < Store",
      "type MemStore",
      "method Get < MemStore",
      "function NewMemStore",
    ],
    calls: ["Decode", "Errorf"],
    types: ["Item", "MemStore", "error", "string"],
    inherits: [],
    imports: ["fmt", "example.com/app/internal/codec"],
  },
  {
    language: "rust",
    path: "src/engine/mod.rs",
    source: `use crate::config::Settings;
mod planner;

pub const LIMIT: usize = 8;

pub trait Engine { fn run(&self) -> Report; }

pub struct Local { settings: Settings }

impl Engine for Local {
    fn run(&self) -> Report { planner::plan(&self.settings).finish() }
}
`,
    definitions: [
      "module planner",
      "constant LIMIT",
      "interface Engine",
      "method run < Engine",
      "type Local",
      "impl Engine for Local",
      "method run < Engine for Local",
    ],
    calls: ["finish", "plan"],
    types: ["Local", "Report", "Settings"],
    inherits: ["Engine"],
    imports: ["crate::config::Settings", "mod planner"],
  },
  {
    language: "java",
    path: "src/main/java/com/acme/orders/OrderService.java",
    source: `package com.acme.orders;

import com.acme.billing.Invoice;
import java.util.List;

public class OrderService extends BaseService implements Auditable {
    public Invoice bill(Order order) {
        return new Invoice(order.total()).send();
    }
}
`,
    definitions: ["class OrderService", "method bill < OrderService"],
    calls: ["Invoice", "send", "total"],
    types: ["Invoice", "Order"],
    inherits: ["Auditable", "BaseService"],
    imports: ["com.acme.billing.Invoice", "java.util.List"],
  },
  {
    language: "c",
    path: "src/queue.c",
    source: `#include "queue.h"
#include <stdlib.h>

#define QUEUE_MAX 64

struct queue { int size; struct node *head; };

static int queue_push(struct queue *q, int value) {
    struct node *n = node_new(value);
    return list_append(q->head, n);
}
`,
    definitions: ["constant QUEUE_MAX", "type queue", "function queue_push"],
    calls: ["list_append", "node_new"],
    inherits: [],
    imports: ["queue.h", "stdlib.h"],
  },
  {
    language: "cpp",
    path: "src/render/scene.cpp",
    source: `#include "scene.hpp"

namespace render {
class Scene : public Node {
 public:
  void draw(Canvas& canvas) { canvas.clear(); paintAll(canvas); }
};
}
`,
    definitions: ["namespace render", "class Scene < render", "method draw < Scene"],
    calls: ["clear", "paintAll"],
    types: ["Canvas"],
    inherits: ["Node"],
    imports: ["scene.hpp"],
  },
  {
    language: "csharp",
    path: "Services/Mailer.cs",
    source: `using Acme.Core.Messaging;

namespace Acme.Services {
    public class Mailer : ServiceBase, IMailer {
        public void Send(Message message) { Transport.Deliver(Format(message)); }
    }
}
`,
    definitions: [
      "namespace Acme.Services",
      "class Mailer < Acme.Services",
      "method Send < Mailer",
    ],
    calls: ["Deliver", "Format"],
    inherits: ["IMailer", "ServiceBase"],
    imports: ["Acme.Core.Messaging"],
  },
  {
    language: "ruby",
    path: "lib/billing/invoice.rb",
    source: `require "json"
require_relative "tax"

module Billing
  class Invoice < Document
    def total
      Tax.apply(subtotal)
    end
  end
end
`,
    definitions: ["module Billing", "class Invoice < Billing", "method total < Invoice"],
    calls: ["apply"],
    inherits: ["Document"],
    imports: ["json", "./tax"],
  },
  {
    language: "php",
    path: "src/Http/Controller.php",
    source: `<?php
namespace App\\Http;

use App\\Models\\User;
require_once 'helpers.php';

class UserController extends Controller implements Responds {
    public function show($id) {
        return view(User::find($id));
    }
}
`,
    definitions: ["class UserController", "method show < UserController"],
    calls: ["find", "view"],
    inherits: ["Controller", "Responds"],
    imports: ["App\\Models\\User", "helpers.php"],
  },
];

describe("graph extraction", () => {
  it.each(CASES)("$language: definitions, calls, types, inheritance and imports", async (c) => {
    const graph = await graphOf(c.language, c.path, c.source);
    expect(defs(graph)).toEqual(c.definitions);
    expect(refs(graph, "call")).toEqual(expect.arrayContaining(c.calls));
    if (c.types) expect(refs(graph, "type")).toEqual(expect.arrayContaining(c.types));
    expect(refs(graph, "inherit")).toEqual(c.inherits);
    expect(imports(graph)).toEqual(c.imports);
    // A definition's own name is no reference to it.
    for (const definition of graph.definitions) {
      const self = graph.references.find(
        (r) =>
          r.name === definition.name && r.lines.includes(definition.startLine) && r.kind === "use",
      );
      expect(self, `${definition.name} refers to itself`).toBeUndefined();
    }
  });

  it("takes class fields whose value is a function as methods, in TypeScript and JavaScript", async () => {
    const ts = await graphOf(
      "typescript",
      "src/context.ts",
      `class Context {
  #secret = () => 1
  private code = 200
  status = (status: number): void => {
    this.code = status
  }
  text: Respond = (body) => this.status(200)
  static make = function () { return new Context() }
}
`,
    );
    expect(defs(ts)).toEqual([
      "class Context",
      "method status < Context",
      "method text < Context",
      "method make < Context",
    ]);
    expect(ts.definitions[1]).toMatchObject({ startLine: 4, endLine: 6 });
    // The field's own name is not a use of it; the call in `text` is (and `new` constructs).
    expect(refs(ts, "call")).toEqual(["Context", "status"]);
    const js = await graphOf(
      "javascript",
      "src/context.js",
      "class Context {\n  status = (s) => { this.code = s }\n  count = 3\n}\n",
    );
    expect(defs(js)).toEqual(["class Context", "method status < Context"]);
  });

  it("records each use with its lines, once per line, and signatures up to the body", async () => {
    const graph = await graphOf(
      "typescript",
      "a.ts",
      "export function area(w: number, h: number): number {\n  return scale(w) * scale(h);\n}\nconst x = area(1, 2) + area(3, 4);\n",
    );
    expect(graph.definitions[0]?.signature).toBe("function area(w: number, h: number): number");
    expect(graph.references.find((r) => r.name === "scale")).toEqual({
      name: "scale",
      kind: "call",
      lines: [2],
    });
    expect(graph.references.find((r) => r.name === "area")?.lines).toEqual([4]);
  });

  it("ends a signature with its definition when it has no body: the next declaration is not part of it", async () => {
    const ts = await graphOf(
      "typescript",
      "kinds.ts",
      'export type Kind = "a" | "b";\n\nexport type Level = number;\nexport const LIMIT = 3;\nexport function f(): void {}\n',
    );
    expect(ts.definitions.map((d) => [d.name, d.signature])).toEqual([
      ["Kind", 'type Kind = "a" | "b";'],
      ["Level", "type Level = number;"],
      ["LIMIT", "LIMIT = 3"],
      ["f", "function f(): void"],
    ]);
    const go = await graphOf(
      "go",
      "ids.go",
      "package ids\n\ntype ID int\n\ntype Name string\n\nfunc f() {}\n",
    );
    expect(go.definitions.map((d) => d.signature)).toEqual(["ID int", "Name string", "func f()"]);
  });

  it("tells a call made on something (`job.run()`, `this.run()`, `a?.run()`, `T::run()`) from a bare one", async () => {
    const ts = await graphOf(
      "typescript",
      "src/jobs.ts",
      "export function start() {\n  run();\n  job.run();\n  this.run();\n  queue?.run();\n  run();\n}\n",
    );
    expect(ts.references.filter((r) => r.name === "run")).toEqual([
      { name: "run", kind: "call", lines: [2, 6] },
      { name: "run", kind: "call", lines: [3, 4, 5], member: true },
    ]);
    const rust = await graphOf("rust", "src/main.rs", "fn main() {\n    Queue::run();\n}\n");
    expect(rust.references.find((r) => r.name === "run")?.member).toBe(true);
  });

  it("leaves the comment lines inside a signature out of it", async () => {
    const ts = await graphOf(
      "typescript",
      "context.ts",
      "export class Context<\n  // eslint-disable-next-line @typescript-eslint/no-explicit-any\n  E extends Env = any,\n  /** the path */\n  P extends string = any,\n> {\n  run(\n    /* first */ a: number,\n    b: number,\n  ): void {}\n}\n",
    );
    expect(ts.definitions.map((d) => d.signature)).toEqual([
      "class Context<\n  E extends Env = any,\n  P extends string = any,\n>",
      // A comment before code on its line stays with it; the parameter list is whole, its
      // lines indented against the declaration's, not the file's margin.
      "run(\n  /* first */ a: number,\n  b: number,\n): void",
    ]);
    // C#'s directives between a declaration and its body are none of it.
    const cs = await graphOf(
      "csharp",
      "src/IsPolicy.cs",
      "namespace Polly;\n\n#pragma warning disable IDE1006\npublic interface IsPolicy\n#pragma warning restore IDE1006\n{\n    string PolicyKey { get; }\n}\n",
    );
    expect(cs.definitions.find((d) => d.name === "IsPolicy")?.signature).toBe(
      "public interface IsPolicy",
    );
    // Python's comment lines between parameters too; a comment after one stays with it.
    const py = await graphOf(
      "python",
      "api_jwt.py",
      "def decode(\n    self,\n    jwt: str,\n    # deprecated arg, remove in pyjwt3\n    verify: bool = None,  # passthrough\n    #\n    **kwargs,\n) -> dict:\n    return {}\n",
    );
    expect(py.definitions[0]?.signature).toBe(
      "def decode(\n    self,\n    jwt: str,\n    verify: bool = None,  # passthrough\n    **kwargs,\n) -> dict:",
    );
    expect(oneLineSignature(py.definitions[0]?.signature ?? "")).toBe(
      "def decode(self, jwt: str, verify: bool = None, **kwargs) -> dict:",
    );
  });

  it("names a C++ method defined outside its class by its own name, as a method of that class, and does not count its definition as a use", async () => {
    const cpp = await graphOf(
      "cpp",
      "src/shape.cpp",
      '#include "shape.h"\nnamespace geo {\ndouble Shape::area() const { return w_ * h_; }\nvoid geo::Shape::scale(double f) { w_ *= f; }\n}\n',
    );
    expect(defs(cpp)).toEqual(["namespace geo", "method area < Shape", "method scale < Shape"]);
    expect(refs(cpp, "call")).toEqual([]);
  });

  it("does not count a declaration as a use: C prototypes, C++ methods declared in their class, TypeScript overloads; ambient functions and Go interface methods are definitions", async () => {
    const c = await graphOf(
      "c",
      "src/shape.h",
      "double area(struct shape *s);\nint total(void) {\n  int count = area(0);\n  return count;\n}\n",
    );
    expect(defs(c)).toEqual(["function total"]);
    expect(refs(c, "call")).toEqual(["area"]);
    expect(c.references.find((r) => r.name === "area")?.lines).toEqual([3]);
    // A variable's declaration is not a use of it either; its uses are.
    expect(c.references.find((r) => r.name === "count")?.lines).toEqual([4]);

    const cpp = await graphOf(
      "cpp",
      "src/shape.h",
      "class Shape {\n public:\n  virtual double area() const = 0;\n  double scale(double by);\n};\ndouble Shape::scale(double by) { return area() * by; }\n",
    );
    expect(defs(cpp)).toEqual(["class Shape", "method scale < Shape"]);
    expect(cpp.references.find((r) => r.name === "area")?.lines).toEqual([6]);
    expect(refs(cpp, "call")).toEqual(["area"]);

    const ts = await graphOf(
      "typescript",
      "src/parse.ts",
      "declare function external(x: number): void;\nexport function parse(x: string): number;\nexport function parse(x: number): number;\nexport function parse(x: unknown): number { return external(1); }\n",
    );
    expect(defs(ts)).toEqual(["function external", "function parse"]);
    expect(ts.definitions.find((d) => d.name === "parse")?.startLine).toBe(4);
    expect(ts.references.find((r) => r.name === "external")?.lines).toEqual([4]);
    expect(refs(ts, "call")).toEqual(["external"]);
    // A declaration file's overloads: the first stands for them all.
    const dts = await graphOf(
      "typescript",
      "types/parse.d.ts",
      "export declare function parse(x: string): number;\nexport declare function parse(x: number): number;\n",
    );
    expect(defs(dts)).toEqual(["function parse"]);
    expect(refs(dts, "call")).toEqual([]);

    const go = await graphOf(
      "go",
      "shape.go",
      "package geo\n\ntype Shape interface {\n\tArea() float64\n\tScale(by float64) Shape\n}\n",
    );
    expect(defs(go)).toEqual(["interface Shape", "method Area < Shape", "method Scale < Shape"]);
    expect(refs(go, "call")).toEqual([]);
  });

  it("gives a Go method its receiver's type as its parent", async () => {
    const go = await graphOf(
      "go",
      "queue.go",
      "package jobs\n\ntype Queue[T any] struct{ items []T }\n\nfunc (q *Queue[T]) Push(v T) { q.items = append(q.items, v) }\n\nfunc (q Queue[T]) Len() int { return len(q.items) }\n\nfunc New() *Queue[int] { return nil }\n",
    );
    expect(defs(go)).toEqual([
      "type Queue",
      "method Push < Queue",
      "method Len < Queue",
      "function New",
    ]);
  });

  it("reads nothing from minified code, whatever the file's name, and reads the same code laid out or under a long comment", async () => {
    const body = Array.from(
      { length: 120 },
      (_, i) => `function f${i}(a){return g${i}(a)+Helper.run(a)}`,
    );
    const minified = await graphOf("javascript", "vendor/decoder.js", body.join(";"));
    expect(minified).toEqual({ definitions: [], references: [], imports: [] });
    const laidOut = await graphOf("javascript", "vendor/decoder.js", body.join(";\n"));
    expect(laidOut.definitions).toHaveLength(120);
    expect(refs(laidOut, "call")).toContain("g7");
    // A long comment line does not make hand-written code look minified.
    const commented = await graphOf(
      "typescript",
      "src/step.ts",
      `// ${"a long licence or generated notice ".repeat(150)}\nexport function step(): number {\n  return next();\n}\n`,
    );
    expect(defs(commented)).toEqual(["function step"]);
    expect(refs(commented, "call")).toEqual(["next"]);
  });
});

describe("import targets", () => {
  const first = (language: string, file: string, specifier: string, names: string[] = []) =>
    importTargets(language, file, specifier, names);
  const resolves = (targets: ReturnType<typeof first>, path: string) =>
    targets.some((target) => targetMatches(target, path));

  it("TypeScript and JavaScript: relative paths, extensions, .js for .ts, index files; packages are outside", () => {
    expect(
      resolves(first("typescript", "src/net/client.ts", "./retry.js"), "src/net/retry.ts"),
    ).toBe(true);
    expect(resolves(first("typescript", "src/net/client.ts", "../log"), "src/log/index.ts")).toBe(
      true,
    );
    expect(resolves(first("javascript", "lib/a.js", "./b"), "lib/b.js")).toBe(true);
    expect(resolves(first("tsx", "src/App.tsx", "./Button"), "src/Button.tsx")).toBe(true);
    expect(resolves(first("typescript", "src/a.ts", "./b"), "src/c/b.ts")).toBe(false);
    expect(first("typescript", "src/a.ts", "react")).toEqual([]);
  });

  it("a module path is one target, and the graph links its first file a bundler would try", async () => {
    expect(first("typescript", "src/a.ts", "./foo")).toHaveLength(1);
    expect(moduleFiles("src/foo.js").slice(0, 3)).toEqual([
      "src/foo.js",
      "src/foo.ts",
      "src/foo.tsx",
    ]);
    const root = tempDir("ctx-module-");
    writeFiles(root, {
      "src/a.ts": 'import { make } from "./foo";\nexport function run() {\n  return make();\n}\n',
      "src/foo.ts": "export function make() {\n  return 1;\n}\n",
      "src/foo/index.ts": "export function make() {\n  return 2;\n}\n",
    });
    const engine = await ContextEngine.open({ start: root, cwd: root });
    try {
      await engine.index();
      const graph = await engine.loadGraph();
      const nodeOf = (path: string, name: string) =>
        graph.nodes.findIndex(
          (node) => node.name === name && graph.files[node.file]?.path === path,
        );
      const run = nodeOf("src/a.ts", "run");
      const uses = [...graph.uses.targets].slice(
        graph.uses.offsets[run],
        graph.uses.offsets[run + 1],
      );
      expect(uses).toContain(nodeOf("src/foo.ts", "make"));
      expect(uses).not.toContain(nodeOf("src/foo/index.ts", "make"));
    } finally {
      await engine.close();
    }
  });

  it("Python: relative imports by package level, absolute ones wherever the source root is", () => {
    const relative = first("python", "pkg/service/api.py", "..core.base");
    expect(resolves(relative, "pkg/core/base.py")).toBe(true);
    expect(resolves(relative, "other/pkg/core/base.py")).toBe(false);
    expect(
      resolves(first("python", "pkg/service/api.py", ".", ["models"]), "pkg/service/models.py"),
    ).toBe(true);
    expect(resolves(first("python", "pkg/a.py", "app.util"), "src/app/util/__init__.py")).toBe(
      true,
    );
  });

  it("Go, Rust, Java, C, Ruby and PHP name files the way their builds find them", () => {
    expect(
      resolves(
        first("go", "cmd/main.go", "example.com/app/internal/codec"),
        "internal/codec/json.go",
      ),
    ).toBe(true);
    expect(
      resolves(first("rust", "src/engine/mod.rs", "mod planner"), "src/engine/planner.rs"),
    ).toBe(true);
    expect(resolves(first("rust", "src/lib.rs", "crate::config::Settings"), "src/config.rs")).toBe(
      true,
    );
    expect(
      resolves(
        first("java", "a/B.java", "com.acme.billing.Invoice"),
        "src/main/java/com/acme/billing/Invoice.java",
      ),
    ).toBe(true);
    expect(resolves(first("c", "src/queue.c", "queue.h"), "src/queue.h")).toBe(true);
    expect(
      resolves(first("cpp", "src/a.cpp", "util/strings.hpp"), "include/util/strings.hpp"),
    ).toBe(true);
    expect(resolves(first("ruby", "lib/billing/invoice.rb", "./tax"), "lib/billing/tax.rb")).toBe(
      true,
    );
    expect(
      resolves(first("php", "src/Http/C.php", "App\\Models\\User"), "app/Models/User.php"),
    ).toBe(true);
  });
});

describe("tsconfig paths and baseUrl", () => {
  it("are read from a commented tsconfig.json and lead bare specifiers into the project", () => {
    const root = tempDir("ctx-aliases-");
    writeFiles(root, {
      "tsconfig.json": `{
  // comments and trailing commas, as tsconfig files have them
  "compilerOptions": {
    "baseUrl": "./src", /* bare specifiers are looked up here too */
    "paths": { "@app/*": ["app/*"], "config": ["settings/index.ts"], },
  },
}`,
    });
    const aliases = readPathAliases(root);
    expect(aliases).toEqual({
      baseUrl: "src",
      paths: [
        ["@app/*", ["src/app/*"]],
        ["config", ["src/settings/index.ts"]],
      ],
    });
    const resolves = (specifier: string, path: string) =>
      importTargets("typescript", "src/main.ts", specifier, [], aliases).some((target) =>
        targetMatches(target, path),
      );
    expect(resolves("@app/util", "src/app/util.ts")).toBe(true);
    expect(resolves("@app/widgets", "src/app/widgets/index.tsx")).toBe(true);
    expect(resolves("config", "src/settings/index.ts")).toBe(true);
    expect(resolves("lib/strings.js", "src/lib/strings.ts")).toBe(true);
    expect(resolves("react", "src/react.ts")).toBe(true); // baseUrl makes any bare name a candidate
    expect(importTargets("typescript", "src/main.ts", "react", [], null)).toEqual([]);
    expect(readPathAliases(tempDir("ctx-no-aliases-"))).toBeNull();
  });

  it("follow `extends` to relative bases, each base's folders relative to its own folder", () => {
    const root = tempDir("ctx-aliases-extends-");
    writeFiles(root, {
      "config/tsconfig.base.json":
        '{ "compilerOptions": { "baseUrl": "..", "paths": { "@lib/*": ["packages/lib/src/*"] } } }',
      "tsconfig.json":
        '{ "extends": "./config/tsconfig.base", "compilerOptions": { "strict": true } }',
      "jsconfig.json": '{ "extends": "@tsconfig/node20/tsconfig.json" }',
    });
    expect(readPathAliases(root)).toEqual({
      baseUrl: ".",
      paths: [["@lib/*", ["packages/lib/src/*"]]],
    });
    writeFiles(root, {
      "tsconfig.json":
        '{ "extends": ["./config/tsconfig.base.json"], "compilerOptions": { "paths": { "~/*": ["src/*"] } } }',
    });
    // The file's own paths replace the base's, relative to the base's baseUrl.
    expect(readPathAliases(root)).toEqual({ baseUrl: ".", paths: [["~/*", ["src/*"]]] });
  });
});

describe("definition docs", () => {
  // As a look-up reads them: the comment above from the file's lines, else what indexing kept.
  const docs = async (language: string, path: string, source: string) => {
    const lines = source.split("\n");
    return Object.fromEntries(
      (await graphOf(language, path, source)).definitions.map((d) => [
        d.name,
        definitionDoc((line) => lines[line - 1] ?? "", language, d.startLine, d.doc ?? ""),
      ]),
    );
  };

  it("keep only docstrings while indexing: comments are read when a definition is looked up", async () => {
    const typescript = await graphOf(
      "typescript",
      "src/ledger.ts",
      "/** Money owed. */\nexport interface Arrears { total: number }\n",
    );
    expect(typescript.definitions.map((d) => d.doc)).toEqual([undefined]);
    const python = await graphOf(
      "python",
      "ledger.py",
      '# Money still owed.\nclass Arrears:\n    """Kept while indexing."""\n',
    );
    expect(python.definitions.map((d) => d.doc)).toEqual(["Kept while indexing."]);
  });

  it("read the comment right above a definition, past decorators and attributes", async () => {
    expect(
      await docs(
        "typescript",
        "src/ledger.ts",
        [
          "/**",
          " * Money a customer still owes",
          " * after a refund.",
          " */",
          "export interface Arrears { total: number }",
          "",
          "// Closes the account once",
          "// nothing is owed.",
          "export function close(balance: Arrears): void {}",
          "",
          "/* one line */ ",
          "class Ledger {",
          "  /** The sum of all open items. */",
          "  @cached()",
          "  total(): number { return 0; }",
          "}",
          "",
          "// Separated by a blank line, so not this function's doc.",
          "",
          "function bare() {}",
        ].join("\n"),
      ),
    ).toEqual({
      Arrears: "Money a customer still owes after a refund.",
      close: "Closes the account once nothing is owed.",
      Ledger: "one line",
      total: "The sum of all open items.",
      bare: "",
    });
  });

  it("read Python docstrings and # comments, Rust /// past attributes, and not C directives", async () => {
    expect(
      await docs(
        "python",
        "ledger.py",
        [
          "# Money still owed.",
          "class Arrears:",
          '    """Unused: the comment above wins."""',
          "",
          "@dataclass",
          "def close(balance):",
          '    """Closes the account',
          "    once nothing is owed.",
          '    """',
          "    return None",
          "",
          "def one():",
          "    'A one-line docstring.'",
        ].join("\n"),
      ),
    ).toEqual({
      Arrears: "Money still owed.",
      close: "Closes the account once nothing is owed.",
      one: "A one-line docstring.",
    });
    expect(
      await docs(
        "rust",
        "src/ledger.rs",
        "/// Money still owed.\n#[derive(Debug)]\npub struct Arrears { total: u32 }\n",
      ),
    ).toEqual({ Arrears: "Money still owed." });
    expect(
      await docs("c", "ledger.c", "#define OWED 1\nint close(int balance) { return OWED; }\n"),
    ).toEqual({ OWED: "", close: "" });
  });
});
