import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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
