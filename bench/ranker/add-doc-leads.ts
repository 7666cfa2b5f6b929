/**
 * Adds the `docLead` feature to the pinned rows from the texts they are about,
 * with the code the pipeline measures it with, so rows made before the
 * feature existed train it: a code question's unit from the corpus, a
 * commit's fragment from its parent tree (through `git cat-file`).
 *
 *   npx tsx bench/ranker/add-doc-leads.ts ../shared/eval/code-dev ../shared/commit-bench GIT_DIRS
 *
 * GIT_DIRS holds `<repo>.git` for each repository (clones of the bundles, as
 * README.md's recipe makes them). Rows are rewritten in place, in order.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { opensWithTaskWord, taskStems } from "../../src/rank/doc-leads.js";
import { type RankingRow, readRows } from "./ranking-rows.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const [codeDev, commitBench, gitDirs] = process.argv.slice(2);
if (!codeDev || !commitBench || !gitDirs)
  throw new Error("usage: add-doc-leads.ts CODE_DEV_DIR COMMIT_BENCH_DIR GIT_DIRS");

const jsonLines = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);

function withDocLead(row: RankingRow, task: string, text: string): RankingRow {
  const docLead = opensWithTaskWord(text, taskStems(task)) ? 1 : 0;
  return { ...row, features: { ...row.features, docLead } };
}

function write(file: string, rows: readonly RankingRow[]): void {
  const text = rows.map((row) => JSON.stringify(row)).join("\n");
  writeFileSync(file, gzipSync(`${text}\n`, { level: 9 }));
  const led = rows.filter((row) => row.features.docLead === 1);
  process.stdout.write(
    `${file}: ${rows.length} rows, docLead on ${led.length} (${led.filter((row) => row.gain > 0).length} relevant)\n`,
  );
}

// The code questions: each unit's text from the corpus.
const corpus = new Map(jsonLines(join(codeDev, "corpus.jsonl")).map((d) => [d._id, d.text]));
const questions = new Map(jsonLines(join(codeDev, "queries.jsonl")).map((d) => [d._id, d.text]));
const codeDevFile = join(HERE, "data", "code-dev.jsonl.gz");
write(
  codeDevFile,
  (await readRows(codeDevFile)).map((row) =>
    withDocLead(
      row,
      String(questions.get(row.query.split("/").pop() ?? "") ?? ""),
      String(corpus.get(row.item) ?? ""),
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
const files = new Map<string, string[]>();
const rows: RankingRow[] = [];
for (const row of await readRows(commitFile)) {
  const repo = row.query.split("/")[0] ?? "";
  const commit = commits.get(row.query);
  const match = /^(.*)#L(\d+)-L(\d+)$/.exec(row.item);
  if (!commit || !match) throw new Error(`no commit or lines for ${row.query} ${row.item}`);
  const [, path, start, end] = match;
  const key = `${commit.parent}:${path}`;
  let lines = files.get(key);
  if (!lines) {
    lines = (await (blobs.get(repo) as Blobs).read(key)).split("\n");
    files.set(key, lines);
  }
  rows.push(withDocLead(row, commit.task, lines.slice(Number(start) - 1, Number(end)).join("\n")));
}
for (const blob of blobs.values()) blob.close();
write(commitFile, rows);
