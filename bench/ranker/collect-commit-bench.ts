/**
 * Ranking rows of the commit benchmark: for every commit whose answer
 * commit-bench-engine.mjs kept (`ctx query --explain` at 32k tokens, on the
 * parent tree with its history), each fragment's rank features and its gain:
 * 1 when it covers a line the commit changed, 0.5 when it is in a changed
 * file elsewhere, 0 otherwise.
 *
 *   npx tsx bench/ranker/collect-commit-bench.ts /tmp/rows ../shared/commit-bench > rows.jsonl
 *   npx tsx bench/ranker/collect-commit-bench.ts /tmp/rows ../shared/swe-dev > swe-rows.jsonl
 *
 * Every task file of the folder (NAME.jsonl) is read, or the names given after
 * it; rows are grouped as `<folder>/<NAME>` (`commit-bench/hono`,
 * `swe-dev/requests`), the unit a leave-one-out fold leaves out. The issues of
 * swe-dev are scored the same way: the fix's lines and files are the gold.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { RankFeatures } from "../../src/core/rank-signals.js";
import type { RankingRow } from "./ranking-rows.js";

interface Commit {
  readonly repo: string;
  readonly sha: string;
  readonly gold_files: readonly string[];
  readonly gold_lines: Readonly<Record<string, readonly (readonly [number, number])[]>>;
}

interface Answer {
  readonly fragments: readonly {
    readonly path: string;
    readonly startLine: number;
    readonly endLine: number;
    readonly features?: RankFeatures | null;
  }[];
}

const [rowsDir = "/tmp/rows", benchDir = "../shared/commit-bench", ...named] =
  process.argv.slice(2);
const dataSet = basename(resolve(benchDir));
const repositories =
  named.length > 0
    ? named
    : readdirSync(benchDir)
        .filter((file) => file.endsWith(".jsonl"))
        .map((file) => file.slice(0, -".jsonl".length))
        .sort();
for (const name of repositories) {
  const lines = readFileSync(join(benchDir, `${name}.jsonl`), "utf8").split("\n");
  for (const line of lines) {
    if (!line.trim()) continue;
    const commit = JSON.parse(line) as Commit;
    const file = join(rowsDir, commit.repo.replaceAll("/", "_"), `${commit.sha}.json`);
    if (!existsSync(file)) continue;
    const answer = JSON.parse(readFileSync(file, "utf8")) as Answer;
    const gold = new Set(commit.gold_files);
    for (const fragment of answer.fragments) {
      if (!fragment.features) continue;
      const ranges = commit.gold_lines[fragment.path] ?? [];
      const covers = ranges.some(
        ([start, end]) => fragment.startLine <= end && fragment.endLine >= start,
      );
      const row: RankingRow = {
        group: `${dataSet}/${name}`,
        query: `${name}/${commit.sha}`,
        item: `${fragment.path}#L${fragment.startLine}-L${fragment.endLine}`,
        features: fragment.features,
        gain: covers ? 1 : gold.has(fragment.path) ? 0.5 : 0,
        total: gold.size,
      };
      process.stdout.write(`${JSON.stringify(row)}\n`);
    }
  }
}
