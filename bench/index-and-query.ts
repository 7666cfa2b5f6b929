/**
 * Indexing and query benchmark on three.js (npm pack three@0.187.0).
 * Prints files/s, MB/s, peak RSS, index size, the raw FTS5 load of the same
 * files with the ratio, a no-op re-index, and query latency p50/p99.
 * Runs the built library (dist/), so indexing uses worker threads as the CLI does.
 */
import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { ContextEngine } from "../dist/index.js";
import { threeJsCorpus } from "./corpus.js";
import { parseSeconds } from "./parse-floor.js";
import { percentile } from "./percentile.js";
import { loadRawFts5 } from "./raw-fts5.js";

const QUERY_TEMPLATES = [
  (symbol: string) => symbol,
  (symbol: string) => `how does ${symbol} work`,
  (symbol: string) => `where is ${symbol} used and what does it return`,
];

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((relative) => join(dir, relative))
    .filter((file) => statSync(file).isFile());
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

async function main(): Promise<void> {
  const corpus = threeJsCorpus();
  const work = mkdtempSync(join(tmpdir(), "ctx-bench-"));
  const dbFile = join(work, "index.db");
  try {
    const engine = await ContextEngine.open({
      start: corpus,
      db: dbFile,
      env: { XDG_CONFIG_HOME: work },
    });
    const started = performance.now();
    const report = await engine.index([corpus]);
    const seconds = (performance.now() - started) / 1000;
    const mb = report.bytesRead / 1024 / 1024;
    const files = report.added;

    const noopStarted = performance.now();
    const noop = await engine.index([corpus]);
    const noopSeconds = (performance.now() - noopStarted) / 1000;

    // The same run with contexts off, to price structural contexts (target: ≤ 20 % slower),
    // on a copy whose every file then changes, to time re-indexing a whole tree.
    const tree = join(work, "three");
    cpSync(corpus, tree, { recursive: true });
    const plainStarted = performance.now();
    const plain = await ContextEngine.open({
      start: tree,
      db: join(work, "plain.db"),
      env: { XDG_CONFIG_HOME: work },
    });
    await plain.index([tree], { contextualize: "none" });
    const plainSeconds = (performance.now() - plainStarted) / 1000;
    for (const file of listFiles(tree)) appendFileSync(file, "\n// changed\n");
    const changedStarted = performance.now();
    const changed = await plain.index([tree], { contextualize: "none" });
    const changedSeconds = (performance.now() - changedStarted) / 1000;
    await plain.close();

    const db = new Database(dbFile, { readonly: true });
    const indexed = db
      .prepare(
        "SELECT r.root || '/' || d.path AS file FROM documents d JOIN resources r ON r.id = d.resource_id",
      )
      .all() as { file: string }[];
    const symbols = (
      db
        .prepare("SELECT DISTINCT symbol FROM chunks WHERE length(symbol) > 3 ORDER BY symbol")
        .all() as { symbol: string }[]
    ).map((row) => row.symbol);
    db.close();
    const raw = loadRawFts5(
      indexed.map((row) => row.file),
      join(work, "raw.db"),
    );
    const parsing = await parseSeconds(indexed.map((row) => row.file));

    const queries: string[] = [];
    for (let i = 0; queries.length < 150 && symbols.length > 0; i++) {
      const symbol = symbols[(i * 7919) % symbols.length] as string;
      queries.push((QUERY_TEMPLATES[i % QUERY_TEMPLATES.length] as (s: string) => string)(symbol));
    }
    const queryTimes: number[] = [];
    const searchTimes: number[] = [];
    for (const task of queries) {
      let t = performance.now();
      await engine.query({ task, budget: 4000 });
      queryTimes.push(performance.now() - t);
      t = performance.now();
      await engine.search(task, 20);
      searchTimes.push(performance.now() - t);
    }
    queryTimes.sort((a, b) => a - b);
    searchTimes.sort((a, b) => a - b);
    await engine.close();

    const rawRate = raw.bytes / 1024 / 1024 / raw.seconds;
    const ours = mb / seconds;
    const rows: [string, string][] = [
      [
        "corpus",
        `${corpus} (${files} files, ${mb.toFixed(1)} MB indexed, ${report.chunks} chunks)`,
      ],
      ["index: wall time", `${seconds.toFixed(2)} s (structural contexts)`],
      [
        "index without contexts",
        `${plainSeconds.toFixed(2)} s (structural costs ${((100 * (seconds - plainSeconds)) / plainSeconds).toFixed(0)} %; target ≤ 20 %)`,
      ],
      ["index: files/s", (files / seconds).toFixed(0)],
      ["index: MB/s", ours.toFixed(2)],
      [
        "index: size on disk",
        `${((fileSize(dbFile) + fileSize(`${dbFile}-wal`)) / 1024 / 1024).toFixed(1)} MB`,
      ],
      [
        "raw FTS5 load of the same files",
        `${raw.seconds.toFixed(2)} s (${rawRate.toFixed(2)} MB/s)`,
      ],
      ["ratio ctx / raw FTS5 rate", `${((100 * ours) / rawRate).toFixed(1)} % (target ≥ 25 %)`],
      [
        "tree-sitter parsing alone",
        `${parsing.toFixed(2)} s on one thread (${(parsing / 2).toFixed(2)} s of wall time on 2 cores at best)`,
      ],
      ["no-op re-index", `${noopSeconds.toFixed(3)} s (${noop.unchanged} unchanged; target < 1 s)`],
      [
        "re-index, every file changed",
        `${changedSeconds.toFixed(2)} s (${changed.changed} changed; no contexts, ${plainSeconds.toFixed(2)} s fresh)`,
      ],
      [
        "query (budget 4000): p50 / p99",
        `${percentile(queryTimes, 0.5).toFixed(1)} / ${percentile(queryTimes, 0.99).toFixed(1)} ms over ${queries.length} queries`,
      ],
      [
        "search (top 20): p50 / p99",
        `${percentile(searchTimes, 0.5).toFixed(1)} / ${percentile(searchTimes, 0.99).toFixed(1)} ms`,
      ],
      ["peak RSS (all threads)", `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`],
    ];
    for (const [name, value] of rows) console.log(`${name.padEnd(34)} ${value}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
