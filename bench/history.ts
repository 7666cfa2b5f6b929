/**
 * Git history ingestion: a fresh read of 10,000 commits (target under ~10 s),
 * one new commit on top (target under 0.3 s), a run where HEAD has not moved,
 * and the queries strategies make. The repository is generated (same every
 * run) with the shape of a real project's history: most commits change one to
 * four files by a few lines, some sweep many, files are added and renamed.
 * The commit benchmark's vuejs/core bundle is timed too when it is present.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_HISTORY_SETTINGS } from "../dist/history/history-settings.js";
import { ingestHistory } from "../dist/history/ingest-history.js";
import { SqliteStore } from "../dist/store/sqlite/sqlite-store.js";
import { percentile } from "./percentile.js";
import { seededRandom } from "./seeded-random.js";

const COMMITS = 10_000;
const FILES = 800;
const VUE_BUNDLE = new URL("../../shared/commit-bench/core.bundle", import.meta.url).pathname;

/** Writes `commits` commits into a new repository at `root` with one `git fast-import`. */
function generateHistory(root: string, commits: number): void {
  execFileSync("git", ["init", "--quiet", "--initial-branch=main", root]);
  const next = seededRandom(42);
  const pick = (n: number) => Math.floor(next() * n);
  const files = new Map<string, string[]>();
  const names: string[] = [];
  const newFile = () => {
    const name = `src/module${pick(40)}/file${names.length}.ts`;
    const body = Array.from(
      { length: 40 + pick(160) },
      (_, i) => `export const value${i} = ${pick(1000)}; // line ${i}`,
    );
    files.set(name, body);
    names.push(name);
    return name;
  };
  const chunks: string[] = [];
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const start = Math.floor(Date.UTC(2021, 0, 1) / 1000);
  for (let n = 0; n < commits; n++) {
    const touched = new Set<string>();
    const ops: string[] = [];
    if (n === 0) for (let i = 0; i < FILES; i++) touched.add(newFile());
    else {
      const roll = next();
      const count = roll < 0.5 ? 1 : roll < 0.9 ? 2 + pick(3) : 5 + pick(36);
      for (let i = 0; i < count; i++) touched.add(names[pick(names.length)] as string);
      if (n % 50 === 0) touched.add(newFile());
      if (n % 200 === 0) {
        const from = names[pick(names.length)] as string;
        const to = from.replace(/file(\d+)\.ts$/, "renamed$1.ts");
        if (to !== from && !files.has(to)) {
          files.set(to, files.get(from) as string[]);
          files.delete(from);
          names[names.indexOf(from)] = to;
          touched.delete(from);
          ops.push(`R ${from} ${to}`);
        }
      }
      for (const name of touched) {
        const lines = files.get(name) as string[];
        for (let edit = 1 + pick(8); edit > 0; edit--)
          lines[pick(lines.length)] = `export const edited${n} = ${pick(1000)};`;
        if (next() < 0.3) lines.push(`export const added${n} = ${n};`);
      }
    }
    for (const name of touched)
      ops.push(`M 100644 inline ${name}\n${data(`${(files.get(name) as string[]).join("\n")}\n`)}`);
    const when = start + n * 600;
    chunks.push(
      "commit refs/heads/main\n",
      `author Dev${pick(30)} <dev@example.com> ${when} +0000\n`,
      `committer Dev <dev@example.com> ${when} +0000\n`,
      data(`change ${n}: update ${touched.size} files\n\nDetails of change ${n}.\n`),
      ...ops.map((op) => (op.endsWith("\n") ? op : `${op}\n`)),
      "\n",
    );
  }
  execFileSync("git", ["fast-import", "--quiet"], {
    cwd: root,
    input: chunks.join(""),
    maxBuffer: 64 * 1024 * 1024,
  });
  execFileSync("git", ["reset", "--quiet", "--hard"], { cwd: root });
}

const BENCH_IDENTITY = {
  ...process.env,
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.com",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.com",
};

/** Two commits on top: an empty one and one that edits a file. */
function commitTwo(root: string, n: number): void {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, env: BENCH_IDENTITY });
  git("commit", "--quiet", "--allow-empty", "-m", `bench commit ${n}`);
  const file = git("ls-files").toString().split("\n")[0] as string;
  appendFileSync(join(root, file), `\n// bench edit ${n}\n`);
  git("commit", "--quiet", "--all", "-m", `bench edit ${n}`);
}

/** The files changed most often in the last 2,000 commits, where look-ups are slowest. */
function mostChanged(root: string, count: number): string[] {
  const names = execFileSync("git", ["log", "-n", "2000", "--format=", "--name-only"], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  })
    .toString()
    .split("\n")
    .filter((line) => line.length > 0);
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name]) => name);
}

async function timeIngestion(label: string, root: string, work: string): Promise<void> {
  const store = SqliteStore.open(join(work, `${label}.db`), { create: true });
  try {
    const resource = await store.documents.ensureResource(root, "git");
    const started = performance.now();
    const cpu = process.cpuUsage();
    const first = await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
    const used = process.cpuUsage(cpu);
    const wall = (performance.now() - started) / 1000;
    console.log(
      `${label}: ${first.added} commits read in ${wall.toFixed(2)} s wall (${((used.user + used.system) / 1e6).toFixed(2)} s CPU in this process; git's own is apart), ${(first.added / wall).toFixed(0)} commits/s${label === "generated" ? ` (target: ${COMMITS} under ~10 s)` : ""}`,
    );
    const unchanged: number[] = [];
    const incremental: number[] = [];
    for (let round = 0; round < 5; round++) {
      let at = performance.now();
      await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
      unchanged.push(performance.now() - at);
      commitTwo(root, round);
      at = performance.now();
      const report = await ingestHistory(store.history, resource, DEFAULT_HISTORY_SETTINGS);
      incremental.push(performance.now() - at);
      if (report.added !== 2) throw new Error(`expected 2 new commits, read ${report.added}`);
    }
    console.log(
      `${label}: new commits on top (2 a round): p50 ${percentile(incremental, 50).toFixed(0)} ms, max ${Math.max(...incremental).toFixed(0)} ms (target < 300 ms); HEAD unchanged: p50 ${percentile(unchanged, 50).toFixed(1)} ms`,
    );
    const paths = mostChanged(root, 20);
    const activity: number[] = [];
    const co: number[] = [];
    for (const path of paths) {
      let at = performance.now();
      await store.history.fileActivity(resource.id, [path]);
      activity.push(performance.now() - at);
      at = performance.now();
      await store.history.coChanges(
        resource.id,
        path,
        DEFAULT_HISTORY_SETTINGS.coChangeMaxFiles,
        10,
      );
      co.push(performance.now() - at);
    }
    if (paths.length > 0)
      console.log(
        `${label}: file activity p50 ${percentile(activity, 50).toFixed(2)} ms, co-changes of a file p50 ${percentile(co, 50).toFixed(2)} ms (over ${paths.length} of the most changed files)`,
      );
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "ctx-bench-history-"));
  try {
    const generated = join(work, "generated");
    let at = performance.now();
    generateHistory(generated, COMMITS);
    console.log(
      `generated ${COMMITS} commits in ${((performance.now() - at) / 1000).toFixed(1)} s`,
    );
    await timeIngestion("generated", generated, work);
    if (existsSync(VUE_BUNDLE)) {
      const vue = join(work, "vue");
      at = performance.now();
      execFileSync("git", ["clone", "--quiet", VUE_BUNDLE, vue]);
      console.log(`cloned vuejs/core in ${((performance.now() - at) / 1000).toFixed(1)} s`);
      await timeIngestion("vuejs/core", vue, work);
    } else {
      console.log(`vuejs/core: skipped (no bundle at ${VUE_BUNDLE})`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
