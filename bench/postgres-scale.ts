/**
 * The PostgreSQL store at scale: package releases from npm (bench/scale-corpora.ts),
 * each indexed as its own project into ONE schema of one database, until the
 * schema holds CTX_BENCH_SCALE_CHUNKS chunks (default 1,000,000). Prints the
 * projects, total chunks, index time, query p50/p99 over 200 code-dev questions
 * spread over the projects, and the schema's and database's size on disk.
 * The schema is dropped at the end unless CTX_BENCH_KEEP_SCHEMA=1; with
 * CTX_BENCH_SCALE_SCHEMA=<a kept schema> its projects are kept and only releases
 * it lacks are indexed, up to the target: the queries and sizes are measured again
 * on it (after a change to the query path or the schema, whose migrations then run
 * on it first), and it is kept.
 * Runs the built library (dist/); needs a server (bench/postgres-server.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { ContextEngine } from "../dist/index.js";
import { npmPackageCorpus } from "./corpus.js";
import { percentile } from "./percentile.js";
import { benchDatabaseUrl, dropSchema } from "./postgres-server.js";
import { scaleReleases } from "./scale-corpora.js";

const TARGET = Number(process.env.CTX_BENCH_SCALE_CHUNKS ?? 1_000_000);
const QUERIES = 200;
const REUSED = process.env.CTX_BENCH_SCALE_SCHEMA;
const SCHEMA = REUSED ?? `ctx_scale_${process.pid}`;

interface Project {
  readonly name: string;
  readonly root: string;
  readonly config: string;
  chunks: number;
}

const questions = JSON.parse(
  readFileSync(new URL("./code-questions.json", import.meta.url), "utf8"),
) as string[];

/** One engine per project: the project's name and schema come from its own user config. */
function open(url: string, project: Project): Promise<ContextEngine> {
  return ContextEngine.open({
    start: project.root,
    db: url,
    env: { XDG_CONFIG_HOME: project.config },
  });
}

function projectAt(work: string, index: number, name: string, version: string): Project {
  const config = join(work, `config-${index}`);
  mkdirSync(join(config, "ctx"), { recursive: true });
  const projectName = projectNameOf(name, version);
  writeFileSync(
    join(config, "ctx", "config.toml"),
    `[store]\nschema = "${SCHEMA}"\nproject = "${projectName}"\n`,
  );
  return { name: projectName, root: npmPackageCorpus(name, version), config, chunks: 0 };
}

function projectNameOf(name: string, version: string): string {
  return `npm/${name}@${version}`;
}

/** The projects a kept schema holds, with their chunks, from its own tables. */
async function keptProjects(url: string, work: string): Promise<Project[]> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ name: string; chunks: string }>(
      `SELECT p.name, (SELECT count(*) FROM ${SCHEMA}.chunks c WHERE c.project_id = p.id) AS chunks
       FROM ${SCHEMA}.ctx_projects p ORDER BY p.id`,
    );
    const releases = scaleReleases();
    return rows.flatMap((row) => {
      const index = releases.findIndex(
        ([name, version]) => projectNameOf(name, version) === row.name,
      );
      const release = releases[index];
      if (!release) return [];
      return [{ ...projectAt(work, index, release[0], release[1]), chunks: Number(row.chunks) }];
    });
  } finally {
    await admin.end();
  }
}

async function sizes(url: string): Promise<{ schema: number; database: number }> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ schema: string; database: string }>(
      `SELECT (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c
                 JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = $1 AND c.relkind IN ('r', 'm'))::bigint AS schema,
              pg_database_size(current_database()) AS database`,
      [SCHEMA],
    );
    return { schema: Number(rows[0]?.schema ?? 0), database: Number(rows[0]?.database ?? 0) };
  } finally {
    await admin.end();
  }
}

async function main(url: string): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "ctx-bench-scale-"));
  const projects: Project[] = [];
  let total = 0;
  let indexMs = 0;
  try {
    if (REUSED !== undefined) {
      // Opening a project runs any new migration on the schema before the timed queries.
      projects.push(...(await keptProjects(url, work)));
      total = projects.reduce((sum, project) => sum + project.chunks, 0);
    }
    const reusedChunks = total;
    const present = new Set(projects.map((project) => project.name));
    const releases = scaleReleases().filter(
      ([name, version]) => !present.has(projectNameOf(name, version)),
    );
    for (const [name, version] of releases) {
      if (total >= TARGET) break;
      const index = scaleReleases().findIndex(([n, v]) => n === name && v === version);
      const project = projectAt(work, index, name, version);
      const engine = await open(url, project);
      const started = performance.now();
      const report = await engine.index([project.root]);
      const took = performance.now() - started;
      await engine.close();
      indexMs += took;
      project.chunks = report.chunks;
      total += report.chunks;
      projects.push(project);
      process.stderr.write(
        `  ${project.name}: ${report.chunks} chunks in ${(took / 1000).toFixed(1)} s (total ${total}, ${(indexMs / 1000).toFixed(0)} s)\n`,
      );
    }
    const added = total - reusedChunks;
    // Query i goes to project i mod P; each project's engine is opened once and
    // warmed with one query (its graph and statements), then its queries are timed.
    const times: number[] = [];
    const slowest: { ms: number; what: string }[] = [];
    for (const [p, project] of projects.entries()) {
      const mine = Array.from({ length: QUERIES }, (_, i) => i).filter(
        (i) => i % projects.length === p,
      );
      if (mine.length === 0) continue;
      const engine = await open(url, project);
      await engine.query({ task: questions[p % questions.length] as string, budget: 4000 });
      for (const i of mine) {
        const t = performance.now();
        const task = questions[i % questions.length] as string;
        await engine.query({ task, budget: 4000 });
        const ms = performance.now() - t;
        times.push(ms);
        slowest.push({ ms, what: `${project.name}: ${task}` });
      }
      await engine.close();
    }
    times.sort((a, b) => a - b);
    slowest.sort((a, b) => b.ms - a.ms);
    for (const { ms, what } of slowest.slice(0, 3)) {
      process.stderr.write(`  slowest: ${ms.toFixed(0)} ms ${what}\n`);
    }
    const size = await sizes(url);
    const gb = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GB`;
    const rows: [string, string][] = [
      ["projects (package releases)", `${projects.length}, in one schema`],
      ["chunks", `${total.toLocaleString("en-US")} (target ${TARGET.toLocaleString("en-US")})`],
      [
        "index: wall time (all projects)",
        REUSED === undefined
          ? `${(indexMs / 1000).toFixed(0)} s, ${(total / (indexMs / 1000)).toFixed(0)} chunks/s`
          : `${(indexMs / 1000).toFixed(0)} s for the ${added} chunks added to kept schema ${SCHEMA}`,
      ],
      [
        "query (budget 4000): p50 / p99",
        `${percentile(times, 0.5).toFixed(0)} ms / ${percentile(times, 0.99).toFixed(0)} ms over ${times.length} queries`,
      ],
      ["size on disk: schema / database", `${gb(size.schema)} / ${gb(size.database)}`],
    ];
    for (const [label, value] of rows) console.log(`${label.padEnd(34)} ${value}`);
  } finally {
    if (REUSED !== undefined || process.env.CTX_BENCH_KEEP_SCHEMA === "1") {
      console.log(`schema kept: ${SCHEMA}`);
    } else {
      await dropSchema(url, SCHEMA);
    }
    rmSync(work, { recursive: true, force: true });
  }
}

const url = await benchDatabaseUrl();
if (url !== null) await main(url);
