/**
 * Query latency at about 100,000 chunks: eight npm packages in one index,
 * `query` (budget 4000, in process) against a bare FTS5 match over the same
 * chunk texts, with the code-dev question texts as queries (bench/code-questions.json).
 * Targets: p50 within 2×, p99 within 2.5× of the bare match. The same queries
 * with the search kept in one thread (`[search] threads = 1`) are timed beside
 * them: the split search spends the same CPU, only sooner.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { ContextEngine, queryTerms } from "../dist/index.js";
import { npmPackageCorpus } from "./corpus.js";
import { percentile } from "./percentile.js";

const PACKAGES: readonly [string, string][] = [
  ["aws-sdk", "2.1693.0"],
  ["monaco-editor", "0.57.0"],
  ["typescript", "5.9.3"],
  ["rxjs", "7.8.2"],
  ["date-fns", "4.1.0"],
  ["lodash-es", "4.17.21"],
  ["highlight.js", "11.11.1"],
  ["three", "0.187.0"],
];
const ROUNDS = 3;

const questions = JSON.parse(
  readFileSync(new URL("./code-questions.json", import.meta.url), "utf8"),
) as string[];
const roots = PACKAGES.map(([name, version]) => npmPackageCorpus(name, version));
const work = mkdtempSync(join(tmpdir(), "ctx-bench-query-"));
const dbFile = join(work, "index.db");
try {
  const engine = await ContextEngine.open({
    start: roots[0] as string,
    db: dbFile,
    env: { XDG_CONFIG_HOME: work },
  });
  const started = performance.now();
  const report = await engine.index(roots);
  const indexSeconds = (performance.now() - started) / 1000;

  // The floor: the same chunk texts in one plain FTS5 table, matched with the same terms.
  const raw = new Database(join(work, "raw.db"));
  raw.exec("CREATE VIRTUAL TABLE raw USING fts5(body, tokenize = 'porter unicode61')");
  const source = new Database(dbFile, { readonly: true });
  const insert = raw.prepare("INSERT INTO raw (rowid, body) VALUES (?, ?)");
  raw.transaction(() => {
    for (const row of source.prepare("SELECT id, content FROM chunks").iterate()) {
      const { id, content } = row as { id: number; content: string };
      insert.run(id, content);
    }
  })();
  source.close();
  const match = raw.prepare("SELECT rowid FROM raw WHERE raw MATCH ? ORDER BY rank LIMIT 20");
  const bare = (question: string) => {
    const terms = queryTerms(question);
    if (terms.length > 0) match.all(terms.map((term) => `"${term}"`).join(" OR "));
  };

  // The store's own search time inside each query: what the pipeline adds is the rest.
  const store = engine.store;
  const search = store.documents.searchText.bind(store.documents);
  let searching = 0;
  store.documents.searchText = async (query) => {
    const at = performance.now();
    try {
      return await search(query);
    } finally {
      searching += performance.now() - at;
    }
  };

  const oneThreadConfig = join(work, "one-thread");
  mkdirSync(join(oneThreadConfig, "ctx"), { recursive: true });
  writeFileSync(join(oneThreadConfig, "ctx", "config.toml"), "[search]\nthreads = 1\n");
  const oneThread = await ContextEngine.open({
    start: roots[0] as string,
    db: dbFile,
    env: { XDG_CONFIG_HOME: oneThreadConfig },
  });

  const queryTimes: number[] = [];
  const searchTimes: number[] = [];
  const restTimes: number[] = [];
  const oneThreadTimes: number[] = [];
  const bareTimes: number[] = [];
  for (const question of questions) {
    // Warm: graph, statements, caches, search threads.
    await engine.query({ task: question, budget: 4000 });
    await oneThread.query({ task: question, budget: 4000 });
    bare(question);
  }
  // Interleaved question by question, so the machine's drift falls on all three alike.
  for (let round = 0; round < ROUNDS; round++) {
    for (const question of questions) {
      searching = 0;
      let t = performance.now();
      await engine.query({ task: question, budget: 4000 });
      const took = performance.now() - t;
      queryTimes.push(took);
      searchTimes.push(searching);
      restTimes.push(took - searching);
      t = performance.now();
      await oneThread.query({ task: question, budget: 4000 });
      oneThreadTimes.push(performance.now() - t);
      t = performance.now();
      bare(question);
      bareTimes.push(performance.now() - t);
    }
  }
  raw.close();
  await engine.close();
  await oneThread.close();
  queryTimes.sort((a, b) => a - b);
  oneThreadTimes.sort((a, b) => a - b);
  bareTimes.sort((a, b) => a - b);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const [q50, q99, b50, b99] = [
    percentile(queryTimes, 0.5),
    percentile(queryTimes, 0.99),
    percentile(bareTimes, 0.5),
    percentile(bareTimes, 0.99),
  ];
  const rows: [string, string][] = [
    [
      "corpus",
      `${PACKAGES.map(([name, version]) => `${name}@${version}`).join(", ")}: ${report.added} files, ${report.chunks} chunks`,
    ],
    ["index: wall time", `${indexSeconds.toFixed(1)} s`],
    ["queries", `${questions.length} code-dev questions × ${ROUNDS} rounds, after one warm round`],
    ["query (budget 4000): p50 / p99", `${ms(q50)} / ${ms(q99)}`],
    [
      "  of which the index's search: p50",
      `${ms(percentile(sorted(searchTimes), 0.5))}; the rest ${ms(percentile(sorted(restTimes), 0.5))}`,
    ],
    [
      "  search in one thread: p50 / p99",
      `${ms(percentile(oneThreadTimes, 0.5))} / ${ms(percentile(oneThreadTimes, 0.99))}`,
    ],
    ["bare FTS5 match (top 20): p50 / p99", `${ms(b50)} / ${ms(b99)}`],
    ["ratio at p50", `${(q50 / b50).toFixed(2)}× (target ≤ 2×)`],
    ["ratio at p99", `${(q99 / b99).toFixed(2)}× (target ≤ 2.5×)`],
  ];
  for (const [name, value] of rows) console.log(`${name.padEnd(38)} ${value}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}
