import { readdirSync, statSync, writeFileSync } from "node:fs";
import module from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

/** Node 22.1 and later can keep compiled code between runs; Node 20 cannot. */
const nodeCaches =
  typeof (module as { enableCompileCache?: unknown }).enableCompileCache === "function";

describe("the CLI's compiled-code cache", () => {
  it.runIf(nodeCaches)("lives in the user's cache folder, private to the user", () => {
    const cacheHome = tempDir();
    const run = runCli(["--version"], tempDir(), {
      XDG_CACHE_HOME: cacheHome,
      NODE_COMPILE_CACHE: "",
    });
    expect(run.code, run.stderr).toBe(0);
    const folder = join(cacheHome, "context-engine", "compile-cache");
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    // Node writes one folder per Node build, holding the code of the modules the run loaded.
    const [build] = readdirSync(folder);
    expect(readdirSync(join(folder, build ?? "")).length).toBeGreaterThan(0);
  });

  it.skipIf(nodeCaches)("is not made where Node cannot keep compiled code", () => {
    const cacheHome = tempDir();
    const run = runCli(["--version"], tempDir(), {
      XDG_CACHE_HOME: cacheHome,
      NODE_COMPILE_CACHE: "",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(cacheHome)).toEqual([]);
  });

  it("leaves a cache folder the user chose alone, and runs where none can be made", () => {
    const cacheHome = tempDir();
    const chosen = join(tempDir(), "node-cache");
    const own = runCli(["--version"], tempDir(), {
      XDG_CACHE_HOME: cacheHome,
      NODE_COMPILE_CACHE: chosen,
    });
    expect(own.code, own.stderr).toBe(0);
    expect(readdirSync(cacheHome)).toEqual([]);

    // The cache home is a file: no folder can be made under it, and the command still answers.
    const blocked = join(tempDir(), "not-a-folder");
    writeFileSync(blocked, "");
    const run = runCli(["--version"], tempDir(), {
      XDG_CACHE_HOME: blocked,
      NODE_COMPILE_CACHE: "",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(run.stderr).toBe("");
  });
});
