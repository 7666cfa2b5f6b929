import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installedWithoutOptionalPackages } from "../helpers/installed-copy.js";
import { runCli, runCliAt } from "../helpers/run-cli.js";
import { gitRepo } from "../helpers/temp-dir.js";

describe("ctx languages", () => {
  it("lists twenty or more languages with syntax chunking and a code graph, every grammar loading", () => {
    const repo = gitRepo({ "README.md": "# x\n" });
    const result = runCli(["languages", "--check", "--json"], repo);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const { languages, withChunkingAndGraph } = JSON.parse(result.stdout) as {
      languages: { name: string; chunking: string; graph: boolean; grammarLoads?: boolean }[];
      withChunkingAndGraph: number;
    };
    const full = languages.filter((row) => row.chunking === "syntax" && row.graph);
    expect(full.length).toBe(withChunkingAndGraph);
    expect(full.length).toBeGreaterThanOrEqual(20);
    for (const name of [
      "kotlin",
      "swift",
      "scala",
      "dart",
      "lua",
      "elixir",
      "bash",
      "vue",
      "svelte",
    ])
      expect(full.map((row) => row.name)).toContain(name);
    expect(languages.filter((row) => row.grammarLoads === false)).toEqual([]);
    expect(languages.find((row) => row.name === "bash")).toMatchObject({
      interpreters: expect.arrayContaining(["sh", "bash"]),
    });
    expect(languages.find((row) => row.name === "ruby")).toMatchObject({
      filenames: expect.arrayContaining(["Rakefile", "Gemfile"]),
    });
    const table = runCli(["languages"], repo);
    expect(table.stdout).toMatch(/^kotlin\s+\.kt \.kts\s+syntax\s+yes$/m);
    expect(table.stdout).toMatch(
      /^A file with no extension is read in the language its #! line runs \(.*python.*\) or its editor's mode line names/m,
    );
  });

  it("reads a script with no extension in the language of its #! line, and a Rakefile as Ruby", () => {
    const repo = gitRepo({
      "bin/release":
        "#!/usr/bin/env bash\nset -e\n\npublish_release() {\n  git push --tags\n}\n\npublish_release\n",
      "bin/report": "#!/usr/bin/perl\nsub publish_report { print 1; }\n",
      Rakefile: "def release_version\n  File.read('VERSION')\nend\n",
    });
    expect(runCli(["index", "."], repo).code).toBe(0);
    expect(runCli(["symbols", "publish_release"], repo).stdout).toContain(
      "bin/release:4-6 function publish_release",
    );
    expect(runCli(["symbols", "release_version"], repo).stdout).toContain(
      "Rakefile:1-3 function release_version",
    );
    // Perl has no grammar here: its script is text, found by search but defining nothing.
    expect(runCli(["symbols", "publish_report"], repo).code).toBe(1);
    expect(runCli(["search", "publish_report", "--json"], repo).stdout).toContain("bin/report");
    const status = JSON.parse(runCli(["status", "--json"], repo).stdout) as {
      store: { languages: Record<string, number> };
    };
    expect(status.store.languages).toMatchObject({ bash: 1, ruby: 1, text: 1 });
  });

  it("cuts a language's files in line windows, after one warning, when its grammar does not load", () => {
    const cli = installedWithoutOptionalPackages();
    writeFileSync(join(cli, "../../grammars/tree-sitter-lua.wasm"), "not a grammar");
    const repo = gitRepo({
      "a.lua": "local function area(r)\n  return 3.14 * r * r\nend\n",
      "b.lua": "local function perimeter(r)\n  return 2 * 3.14 * r\nend\n",
      "c.py": "def volume(r):\n    return r ** 3\n",
    });
    const indexed = runCliAt(cli, ["index", "."], repo);
    expect(indexed.code).toBe(0);
    const warnings = indexed.stderr.split("\n").filter((line) => line.includes("grammar"));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^ctx: the lua grammar \(tree-sitter-lua\.wasm\) did not load: .+; its files are cut in line windows/,
      ),
    ]);
    const found = runCliAt(cli, ["search", "perimeter", "--json"], repo);
    expect(found.stdout).toContain("b.lua");
    // The other languages are untouched.
    expect(runCliAt(cli, ["symbols", "volume"], repo).stdout).toContain("c.py:1-2 function volume");
  });
});

describe("JavaScript as npm writes it, and whole signatures", () => {
  const repo = gitRepo({
    "lib/utils.js": [
      "'use strict';",
      "var proxyaddr = require('proxy-addr');",
      "",
      "/** Compile the trust proxy setting. */",
      "exports.compileTrust = function(val) {",
      "  if (typeof val === 'function') return val;",
      "  return proxyaddr.compile(val || []);",
      "};",
      "",
    ].join("\n"),
    "lib/application.js": [
      "var compileTrust = require('./utils').compileTrust;",
      "var debug = require('debug')('app');",
      "",
      "var app = exports = module.exports = {};",
      "",
      "app.set = function set(setting, val) {",
      "  debug('set %s', setting);",
      "  this.settings[setting] = compileTrust(val);",
      "  return this;",
      "};",
      "",
    ].join("\n"),
    "lib/response.js": [
      "var res = Object.create(null);",
      "module.exports = res;",
      "",
      "res.send = function send(body) {",
      "  this.end(body);",
      "  return this;",
      "};",
      "",
      "res.set =",
      "res.header = function header(field, val) {",
      "  return this;",
      "};",
      "",
      "function View(name) { this.name = name; }",
      "View.prototype.lookup = function lookup(name) {",
      "  return name;",
      "};",
      "Object.defineProperty(res, 'ok', {",
      "  get: function () { return this.statusCode < 300; }",
      "});",
      "",
    ].join("\n"),
    "src/app.py": [
      "import functools",
      "",
      "",
      "@functools.cache",
      "def url_for(",
      "    endpoint: str,",
      "    *,",
      "    _anchor: str | None = None,",
      "    **values: object,",
      ") -> str:",
      '    """Build a URL."""',
      "    return endpoint",
      "",
    ].join("\n"),
  });

  it("finds member, prototype, exported and defineProperty definitions", () => {
    expect(runCli(["index", "."], repo).code).toBe(0);
    expect(runCli(["symbols", "res.send"], repo).stdout).toContain(
      "lib/response.js:4-7 method res.send",
    );
    expect(runCli(["symbols", "View.lookup"], repo).stdout).toContain(
      "lib/response.js:15-17 method View.lookup",
    );
    expect(runCli(["symbols", "res.header"], repo).stdout).toContain(
      "lib/response.js:10-12 method res.header",
    );
    expect(runCli(["symbols", "res.set"], repo).stdout).toContain("method res.set");
    expect(runCli(["symbols", "res.ok"], repo).stdout).toContain(
      "lib/response.js:18-20 method res.ok",
    );
  });

  it("resolves a required name to the file that exports it, and does not count the require as a definition", () => {
    const refs = runCli(["refs", "compileTrust", "--json"], repo);
    const result = JSON.parse(refs.stdout) as {
      definitions: { path: string; startLine: number; kind: string }[];
      references: { path: string; line: number; kind: string }[];
    };
    expect(result.definitions).toEqual([
      expect.objectContaining({ path: "lib/utils.js", startLine: 5, kind: "function" }),
    ]);
    expect(result.references).toContainEqual(
      expect.objectContaining({ path: "lib/application.js", line: 8, kind: "call" }),
    );
    const map = runCli(["map", "--budget", "1024"], repo).stdout;
    expect(map).toContain("res.send = function send(body)");
    expect(map).toContain("app.set = function set(setting, val)");
    // A chain of assignments shows its function once: with the first name, not again alone.
    expect(map.split("res.header = function header(field, val)")).toHaveLength(2);
    expect(map).not.toContain("require('./utils')");
  });

  it("shows a Python definition's whole signature: decorator, every parameter, return type", () => {
    const found = runCli(["symbols", "url_for"], repo).stdout;
    expect(found).toContain("src/app.py:4-12 function url_for");
    expect(found).toContain(
      "@functools.cache def url_for(endpoint: str, *, _anchor: str | None = None, **values: object) -> str:",
    );
  });
});
describe("JavaScript modules written inside one function", () => {
  const repo = gitRepo({
    // dayjs's plugins: the module is the function it exports.
    "src/plugin/weekOfYear/index.js": [
      "import { W } from '../../constant'",
      "",
      "export default (option, Dayjs) => {",
      "  const proto = Dayjs.prototype",
      "  proto.week = function (week = null) {",
      "    return Math.ceil(this.diff(this.startOf('year'), W, true))",
      "  }",
      "}",
      "",
    ].join("\n"),
    "src/constant.js": "export const W = 'week'\n",
    // A browser library of before bundlers: UMD, its factory holding the module.
    "lib/format.js": [
      "(function (global, factory) {",
      "  global.Format = factory()",
      "})(this, function () {",
      "  var Format = function (pattern) { this.pattern = pattern }",
      "  Format.prototype.render = function render(values) {",
      "    return this.pattern",
      "  }",
      "  return Format",
      "})",
      "",
    ].join("\n"),
  });

  it("finds what a plugin's exported function and a UMD factory define", () => {
    expect(runCli(["index", "."], repo).code).toBe(0);
    expect(runCli(["symbols", "week"], repo).stdout).toContain(
      "src/plugin/weekOfYear/index.js:5-7 method proto.week",
    );
    expect(runCli(["symbols", "Format.render"], repo).stdout).toContain(
      "lib/format.js:5-7 method Format.render",
    );
    expect(runCli(["symbols", "Format"], repo).stdout).toContain(
      "lib/format.js:4-4 function Format",
    );
    // Its locals that are values are no definitions.
    expect(runCli(["symbols", "proto"], repo).stdout).not.toContain("weekOfYear");
  });
});

describe("JavaScript's imports of other files' types and lazy imports", () => {
  const repo = gitRepo({
    "src/cards/types.d.ts": [
      "export type TopLangOptions = {",
      "  hide_title: boolean;",
      "  langs_count: number;",
      "};",
      "",
    ].join("\n"),
    // The same name elsewhere: only the import tells which one the card means.
    "src/legacy/types.d.ts": ["export type TopLangOptions = { hide: string[] };", ""].join("\n"),
    "src/cards/top-languages-card.js": [
      "/**",
      " * Renders the card.",
      " *",
      ' * @param {Partial<import("./types").TopLangOptions>} options Card options.',
      " * @returns {string} The card.",
      " */",
      "export const renderTopLanguages = (options = {}) => {",
      "  return '<svg>' + options.langs_count + '</svg>';",
      "};",
      "",
      "export async function loadTheme(name) {",
      '  const { themes } = await import("../themes.js");',
      "  return themes[name];",
      "}",
      "",
    ].join("\n"),
    "src/themes.js": ["export const themes = { dark: {} };", ""].join("\n"),
  });

  it("resolves a doc comment's import(…).Type and a lazy import(…) to their files", () => {
    expect(runCli(["index", "."], repo).code).toBe(0);
    const refs = (name: string) =>
      JSON.parse(runCli(["refs", name, "--json"], repo).stdout) as {
        references: { path: string; line: number; kind: string }[];
      };
    expect(refs("TopLangOptions").references).toContainEqual(
      expect.objectContaining({ path: "src/cards/top-languages-card.js", line: 4, kind: "type" }),
    );
    const themes = refs("themes").references;
    expect(themes).toContainEqual(
      expect.objectContaining({ path: "src/cards/top-languages-card.js", line: 13 }),
    );
  });
});

describe("Ruby attribute accessors", () => {
  const repo = gitRepo({
    "lib/rack/response.rb": [
      "module Rack",
      "  class Response",
      "    attr_accessor :status, :length",
      "    attr_reader :headers",
      "",
      "    def finish",
      "      [status, headers]",
      "    end",
      "    alias to_a finish",
      "  end",
      "end",
      "",
    ].join("\n"),
  });

  it("are definitions of the methods they name", () => {
    expect(runCli(["index", "."], repo).code).toBe(0);
    expect(runCli(["symbols", "Response.status"], repo).stdout).toContain(
      "lib/rack/response.rb:3-3 method Response.status",
    );
    expect(runCli(["symbols", "headers"], repo).stdout).toContain("attr_reader :headers");
    expect(runCli(["symbols", "Response.to_a"], repo).stdout).toContain(
      "lib/rack/response.rb:9-9 method Response.to_a",
    );
  });
});
