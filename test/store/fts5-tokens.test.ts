import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { fts5Tokens } from "../../src/store/postgres/fts5-tokens.js";
import { indexText } from "../../src/text/code-tokenizer.js";

/** What SQLite's FTS5 itself indexes for each text, under the SQLite store's tokenizer. */
function sqliteTokens(texts: readonly string[]): string[][] {
  const db = new Database(":memory:");
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'porter unicode61 remove_diacritics 2');
           CREATE VIRTUAL TABLE v USING fts5vocab(t, instance);`);
  const insert = db.prepare("INSERT INTO t (rowid, x) VALUES (?, ?)");
  for (const [i, text] of texts.entries()) insert.run(i + 1, text);
  const rows = db.prepare("SELECT doc, term FROM v ORDER BY doc, offset").all() as {
    doc: number;
    term: string;
  }[];
  db.close();
  const tokens = texts.map((): string[] => []);
  for (const row of rows) tokens[row.doc - 1]?.push(row.term);
  return tokens;
}

function sourceTexts(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"));
}

describe("FTS5 tokens outside SQLite", () => {
  it("are the tokens FTS5 indexes for this repository's code, as the code tokenizer's terms", () => {
    const texts = sourceTexts(join(import.meta.dirname, "../../src")).map(indexText);
    const ours = texts.map(fts5Tokens);
    const theirs = sqliteTokens(texts);
    expect(ours.length).toBeGreaterThan(100);
    for (const [i, tokens] of ours.entries()) expect(tokens).toEqual(theirs[i]);
  });

  it("are the tokens FTS5 indexes for raw prose, punctuation, digits and accents included", () => {
    const texts = [
      readFileSync(join(import.meta.dirname, "../../README.md"), "utf8"),
      "Relational conditional rationalization hopefulness generalizations; agreed, feed, bled, hopping, filing, failing",
      "Café naïve déjà-vu Ørsted ÅNGSTRÖM straße 東京タワー x86_64 __init__ e\u0301te\u0301 caresses ponies ties caress cats",
      "sky skies dying lying motoring conflated troubled sized hopped tanned falling hissing fizzed failing filing happy",
      "aed bed aeed ying yyy oed triplicate formative formalize electriciti electrical hopeful goodness",
    ];
    expect(texts.map(fts5Tokens)).toEqual(sqliteTokens(texts));
  });
});
