/**
 * Sets the features read off a fragment's text and symbol (`docLead`,
 * `nameWords`) in the pinned rows, with the code the pipeline measures them
 * with, so rows made before a feature existed train it: a code question's unit
 * from the corpus, a commit's fragment from its parent tree (through
 * `git cat-file`), its symbol from that file's chunks and definitions.
 *
 *   npx tsx bench/ranker/add-text-features.ts ../shared/eval/code-dev ../shared/commit-bench GIT_DIRS
 *
 * GIT_DIRS holds `<repo>.git` for each repository (clones of the bundles, as
 * README.md's recipe makes them). Rows are rewritten in place, in order.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { DocumentChunker } from "../../src/ingest/chunk/chunk-document.js";
import { DEFAULT_CHUNK_LIMITS } from "../../src/ingest/chunk/chunk-limits.js";
import { opensWithTaskWord } from "../../src/rank/doc-leads.js";
import { namedByTaskWords } from "../../src/rank/name-words.js";
import { taskStems } from "../../src/text/word-stems.js";
import { createTokenCounter } from "../../src/tokens/create-counter.js";
import { type RankingRow, readRows } from "./ranking-rows.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const [codeDev, commitBench, gitDirs] = process.argv.slice(2);
if (!codeDev || !commitBench || !gitDirs)
  throw new Error("usage: add-text-features.ts CODE_DEV_DIR COMMIT_BENCH_DIR GIT_DIRS");

const jsonLines = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/**
 * A code question's unit is stored with no symbol (`ctx eval` chunks nothing),
 * so `nameWords` is 0 on its keyword fragment, as it is here.
 */
function withTextFeatures(row: RankingRow, task: string, text: string, symbol: string): RankingRow {
  const stems = taskStems(task);
  const docLead = opensWithTaskWord(text, stems) ? 1 : 0;
  const nameWords = namedByTaskWords(symbol, stems) ? 1 : 0;
  return { ...row, features: { ...row.features, docLead, nameWords } };
}

function write(file: string, rows: readonly RankingRow[]): void {
  const text = rows.map((row) => JSON.stringify(row)).join("\n");
  writeFileSync(file, gzipSync(`${text}\n`, { level: 9 }));
  const counts = (["docLead", "nameWords"] as const).map((name) => {
    const on = rows.filter((row) => row.features[name] === 1);
    return `${name} on ${on.length} (${on.filter((row) => row.gain > 0).length} relevant)`;
  });
  process.stdout.write(`${file}: ${rows.length} rows, ${counts.join(", ")}\n`);
}

// The code questions: each unit's text from the corpus.
const corpus = new Map(jsonLines(join(codeDev, "corpus.jsonl")).map((d) => [d._id, d.text]));
const questions = new Map(jsonLines(join(codeDev, "queries.jsonl")).map((d) => [d._id, d.text]));
const codeDevFile = join(HERE, "data", "code-dev.jsonl.gz");
write(
  codeDevFile,
  (await readRows(codeDevFile)).map((row) =>
    withTextFeatures(
      row,
      String(questions.get(row.query.split("/").pop() ?? "") ?? ""),
      String(corpus.get(row.item) ?? ""),
      "",
    ),
  ),
);

/** Blobs by `rev:path`, read through one `git cat-file --batch` per repository. */
class Blobs {
  private readonly git;
  private readonly lines;
  private pending: ((text: string) => void) | null = null;

  constructor(gitDir: string) {
    this.git = spawn("git", ["--git-dir", gitDir, "cat-file", "--batch"]);
    this.lines = this.git.stdout;
    let buffer = Buffer.alloc(0);
    let want = -1;
    this.lines.on("data", (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      for (;;) {
        if (want < 0) {
          const newline = buffer.indexOf(10);
          if (newline < 0) return;
          const header = buffer.subarray(0, newline).toString();
          buffer = buffer.subarray(newline + 1);
          if (header.endsWith("missing")) {
            this.resolve("");
            continue;
          }
          want = Number(header.split(" ")[2]);
        }
        if (buffer.length < want + 1) return;
        const text = buffer.subarray(0, want).toString("utf8");
        buffer = buffer.subarray(want + 1);
        want = -1;
        this.resolve(text);
      }
    });
  }

  read(spec: string): Promise<string> {
    return new Promise((resolve) => {
      this.pending = resolve;
      this.git.stdin.write(`${spec}\n`);
    });
  }

  close(): void {
    this.git.stdin.end();
  }

  private resolve(text: string): void {
    const pending = this.pending;
    this.pending = null;
    pending?.(text);
  }
}

// The commits: each fragment's lines in the commit's parent tree, the message as the task.
const commitFile = join(HERE, "data", "commit-bench.jsonl.gz");
const commits = new Map<string, { parent: string; task: string }>();
const blobs = new Map<string, Blobs>();
for (const repo of ["hono", "click", "core", "poetry"]) {
  for (const task of jsonLines(join(commitBench, `${repo}.jsonl`)))
    commits.set(`${repo}/${task.sha}`, { parent: String(task.parent), task: String(task.task) });
  blobs.set(repo, new Blobs(join(gitDirs, `${repo}.git`)));
}
/**
 * The symbol a fragment carries: its chunk's when it is one chunk, else the
 * outermost definition starting on its first line (a graph walk's fragment).
 */
const chunker = new DocumentChunker(DEFAULT_CHUNK_LIMITS, createTokenCounter("o200k"));
async function symbolsOf(path: string, text: string): Promise<Map<string, string>> {
  const { chunks, graph } = await chunker.chunk(path, text);
  const outermost = new Map<number, { name: string; endLine: number }>();
  for (const { name, startLine, endLine } of graph?.definitions ?? []) {
    const known = outermost.get(startLine);
    if (!known || endLine > known.endLine) outermost.set(startLine, { name, endLine });
  }
  const symbols = new Map([...outermost].map(([line, { name }]) => [String(line), name]));
  for (const chunk of chunks) symbols.set(`${chunk.startLine}-${chunk.endLine}`, chunk.symbol);
  return symbols;
}

const files = new Map<string, { lines: string[]; symbols: Map<string, string> }>();
const rows: RankingRow[] = [];
for (const row of await readRows(commitFile)) {
  const repo = row.query.split("/")[0] ?? "";
  const commit = commits.get(row.query);
  const match = /^(.*)#L(\d+)-L(\d+)$/.exec(row.item);
  if (!commit || !match) throw new Error(`no commit or lines for ${row.query} ${row.item}`);
  const [, path, start, end] = match;
  const key = `${commit.parent}:${path}`;
  let file = files.get(key);
  if (!file) {
    const text = await (blobs.get(repo) as Blobs).read(key);
    file = { lines: text.split("\n"), symbols: await symbolsOf(path as string, text) };
    files.set(key, file);
  }
  const symbol = file.symbols.get(`${start}-${end}`) ?? file.symbols.get(String(start)) ?? "";
  const text = file.lines.slice(Number(start) - 1, Number(end)).join("\n");
  rows.push(withTextFeatures(row, commit.task, text, symbol));
}
for (const blob of blobs.values()) blob.close();
write(commitFile, rows);
