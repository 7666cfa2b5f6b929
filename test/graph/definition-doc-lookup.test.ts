import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/context-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const LEDGER_TS = [
  "/**",
  " * Closes the account",
  " * once nothing is owed.",
  " */",
  "export function close(balance: number): void {",
  "  if (balance > 0) throw new Error('still owed');",
  "}",
  "",
  "// Collects what is owed.",
  "export function collect(): number {",
  "  return 0;",
  "}",
  "",
  "export function bare(): void {}",
  "",
].join("\n");

const LEDGER_PY = [
  "# Money still owed.",
  "class Arrears:",
  '    """Unused: the comment above wins."""',
  "",
  "def owed(balance):",
  '    """What is left to pay."""',
  "    return balance",
  "",
].join("\n");

const engines: ContextEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
});

async function ledger(): Promise<{ engine: ContextEngine; db: string }> {
  const root = tempDir();
  writeFiles(root, { "src/ledger.ts": LEDGER_TS, "ledger.py": LEDGER_PY });
  const db = join(tempDir(), "index.db");
  const engine = await ContextEngine.open({ start: root, db, env: { XDG_CONFIG_HOME: root } });
  engines.push(engine);
  await engine.index([root]);
  return { engine, db };
}

const docOf = async (engine: ContextEngine, name: string) =>
  (await engine.findSymbols(name)).map((definition) => definition.doc ?? "");

describe("definition docs on look-up", () => {
  it("read the comment above from the stored lines, else the docstring indexing kept", async () => {
    const { engine, db } = await ledger();
    expect(await docOf(engine, "close")).toEqual(["Closes the account once nothing is owed."]);
    expect(await docOf(engine, "collect")).toEqual(["Collects what is owed."]);
    expect(await docOf(engine, "bare")).toEqual([""]);
    expect(await docOf(engine, "owed")).toEqual(["What is left to pay."]);
    expect(await docOf(engine, "Arrears")).toEqual(["Money still owed."]);
    // Indexing stored only the docstrings.
    const stored = new Database(db, { readonly: true });
    const rows = stored.prepare("SELECT name, doc FROM graph_definitions ORDER BY name").all() as {
      name: string;
      doc: string;
    }[];
    stored.close();
    expect(Object.fromEntries(rows.map((row) => [row.name, row.doc]))).toEqual({
      Arrears: "Unused: the comment above wins.",
      bare: "",
      close: "",
      collect: "",
      owed: "What is left to pay.",
    });
  });

  it("read each file once however many of its definitions are found, and keep an older index's stored comments", async () => {
    const { engine, db } = await ledger();
    // An index written before held the comment itself: the look-up gives the same text.
    const writable = new Database(db);
    writable
      .prepare("UPDATE graph_definitions SET doc = ? WHERE name = 'close'")
      .run("Closes the account once nothing is owed.");
    writable.close();
    const store = engine.store;
    const read = store.documents.getDocumentChunks.bind(store);
    const paths: string[] = [];
    store.documents.getDocumentChunks = (resourceId, path, limit) => {
      paths.push(path);
      return read(resourceId, path, limit);
    };
    const found = await engine.findSymbols("c*");
    expect(found.map((definition) => [definition.name, definition.doc ?? ""])).toEqual([
      ["close", "Closes the account once nothing is owed."],
      ["collect", "Collects what is owed."],
    ]);
    expect(paths).toEqual(["src/ledger.ts"]);
  });
});
