import { cpSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { tempDir } from "../helpers/temp-dir.js";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

/** Exported top-level functions and classes of a file, with the position of their names. */
function exportedDeclarations(file: string, text: string): { name: string; position: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; position: number }[] = [];
  for (const statement of source.statements) {
    const exported = ts
      .getModifiers(statement as ts.HasModifiers)
      ?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) &&
      statement.name
    ) {
      found.push({ name: statement.name.text, position: statement.name.getStart(source) });
    }
  }
  return found;
}

describe("file-level references against the TypeScript language service", () => {
  it("agree on this project's own sources: precision and recall of at least 0.9 over 60 exported symbols", async () => {
    const root = tempDir("ctx-oracle-");
    cpSync(SRC, join(root, "src"), { recursive: true });
    const files = readdirSync(join(root, "src"), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
    const texts = new Map(files.map((file) => [file, readFileSync(file, "utf8")]));
    const service = ts.createLanguageService({
      getScriptFileNames: () => files,
      getScriptVersion: () => "1",
      getScriptSnapshot: (file) => {
        const text =
          texts.get(file) ?? (ts.sys.fileExists(file) ? ts.sys.readFile(file) : undefined);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => root,
      getCompilationSettings: () => ({
        allowJs: true,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        noEmit: true,
      }),
      getDefaultLibFileName: ts.getDefaultLibFilePath,
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
    });

    const all = files.flatMap((file) =>
      exportedDeclarations(file, texts.get(file) ?? "").map((declaration) => ({
        file,
        ...declaration,
      })),
    );
    // Every k-th of the sorted declarations: a fixed sample across the whole tree.
    const step = Math.max(1, Math.floor(all.length / 60));
    const sample = all.filter((_, index) => index % step === 0).slice(0, 60);
    expect(sample.length).toBeGreaterThanOrEqual(40);

    const engine = await ContextEngine.open({
      start: root,
      cwd: root,
      env: { XDG_CONFIG_HOME: root },
    });
    let agreed = 0;
    let ours = 0;
    let theirs = 0;
    const misses: string[] = [];
    try {
      await engine.index([root]);
      for (const { file, name, position } of sample) {
        const path = relative(root, file);
        const oracle = new Set(
          (service.findReferences(file, position) ?? [])
            .flatMap((symbol) => symbol.references)
            .map((reference) => relative(root, reference.fileName))
            .filter((referencing) => referencing !== path && referencing.startsWith("src/")),
        );
        const found = new Set(
          (await engine.findReferences(name, path)).references
            .map((reference) => reference.path)
            .filter((referencing) => referencing !== path),
        );
        for (const referencing of found) if (oracle.has(referencing)) agreed++;
        ours += found.size;
        theirs += oracle.size;
        for (const referencing of oracle)
          if (!found.has(referencing)) misses.push(`${name} (${path}) used in ${referencing}`);
        for (const referencing of found)
          if (!oracle.has(referencing)) misses.push(`${name} (${path}) wrongly in ${referencing}`);
      }
    } finally {
      await engine.close();
    }
    const precision = ours === 0 ? 1 : agreed / ours;
    const recall = theirs === 0 ? 1 : agreed / theirs;
    console.log(
      `references vs TypeScript on ${sample.length} symbols: precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} (${agreed} of ${ours} found, ${theirs} expected)`,
    );
    expect({
      precision: precision >= 0.9,
      recall: recall >= 0.9,
      misses: misses.slice(0, 10),
    }).toEqual({
      precision: true,
      recall: true,
      misses: expect.any(Array),
    });
    expect(theirs).toBeGreaterThan(60);
  }, 120_000);
});
