import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadedGraph } from "../../src/core/graph.js";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { namedDefinitions } from "../../src/graph/named-definitions.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const PROJECT = {
  "src/flask/app.py": [
    "class Flask:",
    "    def url_for(self, endpoint):",
    "        return endpoint",
    "",
    "    def flush(self):",
    "        return None",
    "",
  ].join("\n"),
  "src/flask/blueprints.py": [
    "class Blueprint:",
    "    def url_for(self, endpoint):",
    "        return endpoint",
    "",
  ].join("\n"),
  "src/flask/helpers.py": [
    "def url_for(endpoint):",
    "    return endpoint",
    "",
    "def hc(value):",
    "    return value",
    "",
    "def changed(value):",
    "    return value",
    "",
  ].join("\n"),
  "src/io/writer.py": ["def flush(stream):", "    return stream", ""].join("\n"),
  "src/io/buffer.py": ["def flush(buffer):", "    return buffer", ""].join("\n"),
  "src/io/pipe.py": ["def flush(pipe):", "    return pipe", ""].join("\n"),
  "src/io/socket.py": ["def flush(sock):", "    return sock", ""].join("\n"),
  "src/io/render.py": ["def render(page):", "    return page", ""].join("\n"),
  "lib/money.rb": [
    "class Money",
    "  def ==(other)",
    "    cents == other.cents",
    "  end",
    "end",
    "",
  ].join("\n"),
  "src/num/uint128.hpp": [
    "class uint128 {",
    " public:",
    "  uint128 &operator+=(const uint128 &other) {",
    "    lo += other.lo;",
    "    return *this;",
    "  }",
    "  uint128 &operator+(const uint128 &other) const {",
    "    return other;",
    "  }",
    "  bool operator==(const uint128 &other) const {",
    "    return lo == other.lo;",
    "  }",
    "  unsigned long lo;",
    "};",
    "",
  ].join("\n"),
};

describe("the definitions a question about history names", () => {
  let engine: ContextEngine;
  let graph: LoadedGraph;

  beforeAll(async () => {
    const root = tempDir();
    writeFiles(root, PROJECT);
    engine = await ContextEngine.open({ start: root, cwd: root, env: { XDG_CONFIG_HOME: root } });
    await engine.index();
    graph = await engine.loadGraph();
  });
  afterAll(() => engine.close());

  const named = (task: string) =>
    namedDefinitions(graph, task).map((d) => `${d.path}:${d.startLine} ${d.name}`);

  it("keeps the definitions in a file the task names, by its path or its last parts", () => {
    expect(named("why was url_for in src/flask/app.py changed")).toEqual([
      "src/flask/app.py:2 url_for",
    ]);
    expect(named("why was url_for in helpers.py changed")).toEqual([
      "src/flask/helpers.py:1 url_for",
    ]);
    // Any name the named file defines, a short one too.
    expect(named("why was hc in flask/helpers.py changed")).toEqual(["src/flask/helpers.py:4 hc"]);
  });

  it("reads Owner.name as the owner's method, not as a file", () => {
    expect(named("why was Flask.url_for changed")).toEqual(["src/flask/app.py:2 url_for"]);
    expect(named("why was Blueprint.url_for changed")).toEqual([
      "src/flask/blueprints.py:2 url_for",
    ]);
  });

  it("takes a name written as code, and a plain word only when few definitions have it", () => {
    expect(named("why was url_for changed")).toEqual([
      "src/flask/app.py:2 url_for",
      "src/flask/blueprints.py:2 url_for",
      "src/flask/helpers.py:1 url_for",
    ]);
    // A plain word names the few definitions it has; five of `flush` say too little.
    expect(named("why was render changed")).toEqual(["src/io/render.py:1 render"]);
    expect(named("why was flush changed")).toEqual([]);
    expect(named("why was `flush` changed")).toHaveLength(4);
    expect(named("why was flush in src/io/buffer.py changed")).toEqual([
      "src/io/buffer.py:1 flush",
    ]);
    // An operator, which no word pattern reads: the longest the task writes.
    expect(named("why was operator+= in src/num/uint128.hpp changed")).toEqual([
      "src/num/uint128.hpp:3 operator+=",
    ]);
    expect(named("why was `operator==` changed")).toEqual(["src/num/uint128.hpp:10 operator=="]);
    expect(named("why was == in lib/money.rb changed")).toEqual(["lib/money.rb:2 =="]);
    // The question's own words are not names, whatever the project defines.
    expect(named("why was this changed")).toEqual([]);
    expect(named("why was hc changed")).toEqual([]);
  });
});
