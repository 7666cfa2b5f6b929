/**
 * "Why was NAME changed" on real repositories: for definitions picked at
 * random (the same every run) from each repository's code graph, whether the
 * default pipeline's answer holds the commit that last changed the
 * definition's lines (the newest commit `git blame` gives for them), asked
 * with the file ("why was NAME in PATH changed") and without it.
 *
 *   npm run build && npx tsx bench/why-questions.ts ../shared/commit-bench/jq.bundle …
 *
 * Each argument is a git bundle or repository, cloned whole into a temporary folder.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileRoleOf } from "../dist/core/file-roles.js";
import { ContextEngine } from "../dist/index.js";
import { seededRandom } from "./seeded-random.js";

const PER_REPOSITORY = 25;
const KINDS = new Set(["function", "method"]);

function git(root: string, ...args: string[]): string {
  return execFileSync("git", ["-C", root, ...args], { encoding: "utf8", maxBuffer: 1 << 26 });
}

/** The newest commit among those that last changed the lines (by committer time). */
function lastChange(root: string, path: string, start: number, end: number): string | null {
  let newest: { sha: string; time: number } | null = null;
  let sha = "";
  for (const line of git(root, "blame", "--porcelain", `-L${start},${end}`, "--", path).split(
    "\n",
  )) {
    const header = /^([0-9a-f]{40}) \d+ \d+/.exec(line);
    if (header) sha = header[1] as string;
    else if (line.startsWith("committer-time ")) {
      const time = Number(line.slice("committer-time ".length));
      if (!newest || time > newest.time) newest = { sha, time };
    }
  }
  return newest?.sha ?? null;
}

const rows: string[] = [
  "| repository | definitions | with the file | without it |",
  "|---|---:|---:|---:|",
];
const totals = [0, 0, 0];
for (const source of process.argv.slice(2)) {
  const work = mkdtempSync(join(tmpdir(), "ctx-why-"));
  try {
    const root = join(work, "repo");
    execFileSync("git", ["clone", "--quiet", source, root]);
    const engine = await ContextEngine.open({
      start: root,
      db: join(work, "index.db"),
      env: { XDG_CONFIG_HOME: work },
    });
    await engine.index([root]);
    const graph = await engine.loadGraph();
    const next = seededRandom(7);
    const pool = graph.nodes.filter((node) => {
      const path = graph.files[node.file]?.path ?? "";
      return KINDS.has(node.kind) && node.endLine > node.startLine && fileRoleOf(path) === "source";
    });
    let asked = 0;
    const found = [0, 0];
    for (let tries = 0; asked < PER_REPOSITORY && tries < PER_REPOSITORY * 4; tries++) {
      const node = pool[Math.floor(next() * pool.length)];
      const path = node ? graph.files[node.file]?.path : undefined;
      if (!node || !path) continue;
      const truth = lastChange(root, path, node.startLine, node.endLine);
      if (!truth) continue;
      asked++;
      const tasks = [`why was ${node.name} in ${path} changed`, `why was ${node.name} changed`];
      for (const [index, task] of tasks.entries()) {
        const answer = await engine.query({ task, budget: 4000 });
        if (answer.fragments.some((f) => f.source.kind === "commit" && f.source.sha === truth))
          found[index] = (found[index] ?? 0) + 1;
      }
    }
    await engine.close();
    const share = (n: number) => `${n}/${asked} (${((100 * n) / Math.max(asked, 1)).toFixed(0)} %)`;
    rows.push(
      `| ${basename(source)} | ${asked} | ${share(found[0] ?? 0)} | ${share(found[1] ?? 0)} |`,
    );
    totals[0] = (totals[0] ?? 0) + asked;
    totals[1] = (totals[1] ?? 0) + (found[0] ?? 0);
    totals[2] = (totals[2] ?? 0) + (found[1] ?? 0);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
const [n = 0, withFile = 0, without = 0] = totals;
rows.push(
  `| all | ${n} | ${((100 * withFile) / Math.max(n, 1)).toFixed(1)} % | ${((100 * without) / Math.max(n, 1)).toFixed(1)} % |`,
);
process.stdout.write(`${rows.join("\n")}\n`);
