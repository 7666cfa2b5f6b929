import { appendFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const WORDS = ["retry", "backoff", "cache", "token", "budget", "parser", "index", "vector"];

/** 80 small modules whose words repeat unevenly, so BM25 statistics matter to the scores. */
function modules(root: string): void {
  const files: Record<string, string> = {};
  for (let n = 0; n < 80; n++) {
    const words = WORDS.filter((_, index) => (n + index) % 3 !== 0);
    files[`src/module${n}.ts`] = words
      .map(
        (word, index) => `export function ${word}${n}_${index}() {\n  return "${word} ${n}";\n}\n`,
      )
      .join("\n");
  }
  writeFiles(root, files);
}

/** Results with their scores, without the resource id (a ULID, new in every index). */
function search(root: string, query: string): unknown[] {
  const result = runCli(["search", query, "--limit", "15", "--json", "--no-refresh"], root);
  expect(result.code, result.stderr).toBe(0);
  const { results } = JSON.parse(result.stdout) as { results: { id: string }[] };
  return results.map(({ id, ...rest }) => ({ ...rest, id: id.slice(id.indexOf(":") + 1) }));
}

describe("compacting the full-text index", () => {
  it("rebuilds it after a run rewrites most files: scores equal a fresh index's", () => {
    const rewritten = tempDir();
    modules(rewritten);
    expect(runCli(["index", "."], rewritten).code).toBe(0);
    for (const name of readdirSync(join(rewritten, "src"))) {
      appendFileSync(join(rewritten, "src", name), "// touched\n");
    }
    const second = runCli(["index", ".", "--json"], rewritten);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ changed: 80 });

    const fresh = tempDir();
    modules(fresh);
    for (const name of readdirSync(join(fresh, "src"))) {
      appendFileSync(join(fresh, "src", name), "// touched\n");
    }
    expect(runCli(["index", "."], fresh).code).toBe(0);

    for (const query of ["retry backoff", "cache token budget", "parser"]) {
      expect(search(rewritten, query)).toEqual(search(fresh, query));
    }
    const db = new Database(join(rewritten, ".ctx", "index.db"), { readonly: true });
    const leftover = db
      .prepare("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'chunks_fts_next%'")
      .get() as { n: number };
    db.close();
    expect(leftover.n).toBe(0);
  });
});
