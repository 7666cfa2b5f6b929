/**
 * The query side of kept-commit-bench.py: reads one JSON request a line
 * (`db`, `tree`, `task`, `budgets`, optional `keep`), answers each budget in
 * process with the build in CTX_DIST, and writes back the file fragments
 * (path, first line, last line) by budget. With `keep`, the `--explain` JSON
 * answer at that budget is written to `keep.file` (and with `keep.every`, the
 * plain answer at every budget beside it, as `SHA@BUDGET.json`, and with
 * `keep.trace` every candidate of it, as `SHA@BUDGET.trace.json`).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const dist = process.env.CTX_DIST ?? "dist";
const { ContextEngine } = await import(pathToFileURL(join(dist, "index.js")).href);

for await (const line of createInterface({ input: process.stdin })) {
  const { db, tree, task, budgets, keep } = JSON.parse(line);
  const engine = await ContextEngine.open({ start: tree, db });
  const fragments = {};
  try {
    for (const budget of budgets) {
      const answer = await engine.query({ task, budget, refresh: false, format: "json" });
      if (keep?.every) {
        mkdirSync(dirname(keep.file), { recursive: true });
        writeFileSync(keep.file.replace(/\.json$/, `@${budget}.json`), answer.output);
        if (keep.trace) {
          // Every candidate, packed or not: what a ranking could have shown besides the answer.
          const rows = answer.trace.map((t) => [
            t.path,
            t.startLine,
            t.endLine,
            t.score,
            t.outcome,
          ]);
          writeFileSync(
            keep.file.replace(/\.json$/, `@${budget}.trace.json`),
            JSON.stringify(rows),
          );
        }
      }
      if (keep?.budget === budget) {
        // Kept apart: an --explain answer carries its explanation within the budget, so
        // it holds fewer fragments, and the figures are the plain answer's.
        const explained = await engine.query({
          task,
          budget,
          refresh: false,
          format: "json",
          explain: true,
        });
        mkdirSync(dirname(keep.file), { recursive: true });
        writeFileSync(keep.file, explained.output);
      }
      fragments[budget] = answer.fragments
        .filter((fragment) => fragment.source.kind === "file")
        .map(({ source }) => [source.path, source.startLine, source.endLine]);
    }
  } finally {
    await engine.close();
  }
  process.stdout.write(`${JSON.stringify({ fragments })}\n`);
}
