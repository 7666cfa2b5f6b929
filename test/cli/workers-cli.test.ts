import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/code", import.meta.url));

/**
 * A plain folder of 340 files (2 MB, enough for worker threads): every sample
 * source file many times over with a function of its own, some Markdown, and a
 * few large files among them, so a slow file at the head of the write order has
 * many small ones behind it.
 */
function manyFiles(root: string, workers: number): void {
  const files: Record<string, string> = {
    "ctx.toml": `[index]\nworkers = ${workers}\n`,
  };
  const samples = readdirSync(FIXTURES).map((name) => ({
    name,
    text: readFileSync(join(FIXTURES, name), "utf8"),
  }));
  for (let copy = 0; copy < 28; copy++) {
    for (const sample of samples) {
      const extra = sample.name.endsWith(".py")
        ? `\n\ndef helper_${copy}():\n    return ${copy}\n`
        : `\n\n// helper ${copy}: déjà vu — 日本語\n`;
      files[`pkg${copy % 7}/copy${copy}/${sample.name}`] = sample.text.repeat(12) + extra;
    }
    files[`docs/guide-${copy}.md`] =
      `# Guide ${copy}\n\n## Retries\n\nRetry ${copy} times with backoff.\n`;
  }
  const big = (samples[0]?.text ?? "").repeat(40);
  for (const index of [0, 5, 200]) files[`pkg${index % 7}/big${index}.cs`] = big;
  writeFiles(root, files);
}

function chunksOf(db: string): unknown[] {
  const database = new Database(db, { readonly: true });
  try {
    return database
      .prepare(
        `SELECT c.id, d.path, c.ordinal, c.start_line, c.end_line, c.kind, c.symbol, c.parent_id,
                c.content, c.header, c.tokens, c.context, c.hash
         FROM chunks c JOIN documents d ON d.id = c.document_id
         WHERE d.path <> 'ctx.toml' ORDER BY c.id`,
      )
      .all();
  } finally {
    database.close();
  }
}

describe("indexing in worker threads", () => {
  it("writes the same chunks, with the same ids, as indexing in one thread", () => {
    const pooled = tempDir();
    const single = tempDir();
    manyFiles(pooled, 2);
    manyFiles(single, 0);
    for (const root of [pooled, single]) {
      const result = runCli(["index", ".", "--json"], root);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ added: 340 });
    }
    const expected = chunksOf(join(single, ".ctx", "index.db"));
    expect(expected.length).toBeGreaterThan(1000);
    expect(chunksOf(join(pooled, ".ctx", "index.db"))).toEqual(expected);

    // A re-run that changes enough to start the pool again (3 of every 4 copies).
    for (const root of [pooled, single]) {
      for (let copy = 0; copy < 28; copy++) {
        if (copy % 4 === 3) continue;
        for (const name of readdirSync(FIXTURES)) {
          const file = join(root, `pkg${copy % 7}`, `copy${copy}`, name);
          writeFileSync(file, `${readFileSync(file, "utf8")}\n// edited ${copy}\n`);
        }
      }
      const result = runCli(["index", ".", "--json"], root);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ changed: 231, unchanged: 109 });
    }
    expect(chunksOf(join(pooled, ".ctx", "index.db"))).toEqual(
      chunksOf(join(single, ".ctx", "index.db")),
    );
    // Four index runs of 2 MB, one of them in a single thread: 21–25 s on a quiet machine.
  }, 120_000);
});
