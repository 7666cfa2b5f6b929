import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

interface Report {
  added: number;
  changed: number;
  unchanged: number;
  chunks: number;
}

function index(root: string): Report {
  const result = runCli(["index", ".", "--json"], root);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Report;
}

describe("chunk settings in ctx.toml", () => {
  it("apply to every file on the next run, not only to files that change", () => {
    const root = tempDir();
    const body = Array.from({ length: 60 }, (_, i) => `    total += step_${i}(value)`).join("\n");
    writeFiles(root, {
      ".ctxignore": "ctx.toml\n",
      "a.py": `def long_a(value):\n    total = 0\n${body}\n    return total\n`,
      "b.py": `def long_b(value):\n    total = 0\n${body}\n    return total\n`,
    });
    // Three files: a.py, b.py and .ctxignore itself.
    const first = index(root);
    expect(first).toMatchObject({ added: 3, changed: 0 });

    writeFileSync(join(root, "ctx.toml"), "[chunking]\nmax_tokens = 100\n");
    const smaller = index(root);
    expect(smaller).toMatchObject({ changed: 3, unchanged: 0 });
    expect(smaller.chunks).toBeGreaterThan(first.chunks);
    expect(index(root)).toMatchObject({ changed: 0, unchanged: 3 });

    rmSync(join(root, "ctx.toml"));
    const back = index(root);
    expect(back).toMatchObject({ changed: 3, chunks: first.chunks });
  });
});
