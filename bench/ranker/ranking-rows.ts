import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import type { RankFeatures } from "../../src/core/rank-signals.js";

/** One candidate of one training query: its features and how relevant it is (0 = not). */
export interface RankingRow {
  /** The repository: what leave-one-out folds by. */
  readonly group: string;
  readonly query: string;
  /** The unit or `path#Lstart-Lend` the row is about. */
  readonly item: string;
  readonly features: RankFeatures;
  readonly gain: number;
  /** How many relevant units (code questions) or changed files (commits) the query has in all. */
  readonly total: number;
}

/** Rows of a `.jsonl` or `.jsonl.gz` file, in file order. */
export async function readRows(file: string): Promise<RankingRow[]> {
  const stream = createReadStream(file);
  const lines = createInterface({
    input: file.endsWith(".gz") ? stream.pipe(createGunzip()) : stream,
  });
  const rows: RankingRow[] = [];
  for await (const line of lines) if (line.trim()) rows.push(JSON.parse(line) as RankingRow);
  return rows;
}
