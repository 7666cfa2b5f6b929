#!/usr/bin/env node
/**
 * An engine command for the commit benchmark that also keeps what it answered:
 * runs `ctx query --explain --format json` and, at the budget given by
 * --keep-budget, writes the answer (each fragment's rank features included) to
 * --out/<repo>/<sha>.json before printing it for the benchmark.
 *
 *   --engine "node $PWD/bench/ranker/commit-bench-engine.mjs --db {db} --task-file {task_file} \
 *     --budget {budget} --repo {repo} --sha {sha} --out /tmp/rows --keep-budget 32000"
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    db: { type: "string" },
    "task-file": { type: "string" },
    budget: { type: "string" },
    repo: { type: "string" },
    sha: { type: "string" },
    out: { type: "string" },
    "keep-budget": { type: "string", default: "32000" },
  },
});
const cli = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "dist", "cli", "main.js");
const task = readFileSync(values["task-file"] ?? "", "utf8");
const result = spawnSync(
  process.execPath,
  [cli, "query", task, "--budget", values.budget ?? "8000", "--format", "json", "--explain"].concat(
    ["--db", values.db ?? "", "--no-refresh"],
  ),
  { encoding: "utf8", maxBuffer: 1 << 28 },
);
process.stderr.write(result.stderr);
if (result.status === 0 && values.budget === values["keep-budget"] && values.out) {
  const file = join(values.out, (values.repo ?? "repo").replaceAll("/", "_"), `${values.sha}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, result.stdout);
}
process.stdout.write(result.stdout);
process.exitCode = result.status ?? 1;
