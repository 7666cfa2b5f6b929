import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, cliEnv, runCli } from "../helpers/run-cli.js";
import { gitRepo } from "../helpers/temp-dir.js";

const PRELOAD = fileURLToPath(new URL("../helpers/list-loaded-modules.mjs", import.meta.url));
/** Which modules the build put into each chunk of the bundled CLI (scripts/bundle-cli.mjs). */
const BUNDLE_META = fileURLToPath(new URL("../../.cache/cli-bundle-meta.json", import.meta.url));
const REPOSITORY = fileURLToPath(new URL("../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "ctx-fast-start-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * The module files behind loaded URLs: a chunk of the bundled CLI stands for
 * the modules the build put into it (file URLs of their dist paths).
 */
function unbundled(urls: readonly string[]): string[] {
  const meta = JSON.parse(readFileSync(BUNDLE_META, "utf8")) as {
    outputs: Record<string, { inputs: Record<string, unknown> }>;
  };
  const root = pathToFileURL(REPOSITORY).href;
  return urls.flatMap((url) => {
    const output = url.startsWith(root) ? meta.outputs[url.slice(root.length)] : undefined;
    return output ? Object.keys(output.inputs).map((input) => root + input) : [url];
  });
}

/** Runs the built CLI and returns its output and every module file its process loaded. */
function loadedBy(
  args: readonly string[],
  cwd = work,
): { code: number; stdout: string; modules: string[] } {
  const list = join(work, `modules-${args.join("-").replace(/\W+/g, "_")}.txt`);
  const result = spawnSync(process.execPath, ["--import", PRELOAD, CLI, ...args], {
    cwd,
    encoding: "utf8",
    env: cliEnv(cwd, { CTX_LOADED_MODULES: list }),
    timeout: 30_000,
  });
  const modules = unbundled(readFileSync(list, "utf8").split("\n").filter(Boolean));
  return { code: result.status ?? -1, stdout: result.stdout, modules };
}

/** The npm packages among loaded modules (`@scope/name` or `name`). */
function packagesOf(modules: readonly string[]): string[] {
  const names = modules.flatMap((url) => {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    return match?.[1] ? [match[1]] : [];
  });
  return [...new Set(names)].sort();
}

/** The modules of the engine proper: stores, ingestion, parsers, the MCP server, models. */
function engineModulesOf(modules: readonly string[]): string[] {
  return modules.filter((url) =>
    /\/dist\/(engine|store|ingest|mcp|parse|embed|contextualize|rerank|strategies|secrets|watch)\//.test(
      url,
    ),
  );
}

describe("start-up loads only what the command uses", () => {
  it("ctx --version loads commander and nothing of the engine", () => {
    const run = loadedBy(["--version"]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    // The list is real: the CLI's own entry point is in it.
    expect(run.modules.some((url) => url.endsWith("/dist/cli/main.js"))).toBe(true);
    expect(packagesOf(run.modules)).toEqual(["commander"]);
    expect(engineModulesOf(run.modules)).toEqual([]);
  });

  it("ctx --help and a command's --help load no heavy module either", () => {
    for (const args of [["--help"], ["query", "--help"], ["hook", "--help"], ["eval", "--help"]]) {
      const run = loadedBy(args);
      expect(run.code, args.join(" ")).toBe(0);
      expect(run.stdout).toContain("Usage:");
      expect(packagesOf(run.modules), args.join(" ")).toEqual(["commander"]);
      expect(engineModulesOf(run.modules), args.join(" ")).toEqual([]);
    }
  });

  it("a run that names a command loads that command's module alone", () => {
    const commandModules = (modules: readonly string[]) =>
      modules
        .filter((url) => url.includes("/dist/cli/commands/"))
        .map((url) => url.replace(/.*\/commands\//, ""));
    expect(commandModules(loadedBy(["hook", "--help"]).modules)).toEqual(["hook-command.js"]);
    expect(commandModules(loadedBy(["--version"]).modules)).toEqual([]);
    // The program's help prints each command's summary, loading none of them;
    // `ctx help` loads every registration, and prints the same.
    const summaries = loadedBy(["--help"]);
    expect(commandModules(summaries.modules)).toEqual([]);
    const registered = loadedBy(["help"]);
    expect(commandModules(registered.modules)).toContain("trust-command.js");
    expect(summaries.stdout).toBe(registered.stdout);
  });

  it("a command that opens the index does load the engine (the check sees lazy imports)", () => {
    const run = loadedBy(["status", "--json"]);
    expect(engineModulesOf(run.modules).length).toBeGreaterThan(0);
    expect(packagesOf(run.modules)).toContain("better-sqlite3");
  });

  it("a query on an up-to-date index loads no parser: the refresh finds nothing to chunk", () => {
    const root = gitRepo({
      "src/fares.ts": "export function fareFor(zone: number): number {\n  return zone * 2;\n}\n",
    });
    expect(runCli(["index"], root).code).toBe(0);
    const run = loadedBy(["query", "fareFor zone"], root);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("fareFor");
    expect(packagesOf(run.modules)).not.toContain("web-tree-sitter");
    // A changed file is chunked, and that loads the parser.
    writeFileSync(
      join(root, "src/fares.ts"),
      "export function fareFor(zone: number): number {\n  return zone * 3;\n}\n",
    );
    expect(packagesOf(loadedBy(["query", "fareFor zone"], root).modules)).toContain(
      "web-tree-sitter",
    );
  });
});
