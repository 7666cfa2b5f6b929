/**
 * Index speed per language: a one-thread `ctx index` of each language's files
 * (files/s, KB/s) beside the parse floor, tree-sitter's parse of the same files
 * alone. The files come from the commit benchmark's repositories at their head
 * (`CTX_BENCH_COMMIT_BENCH`, default ../shared/commit-bench) where one is
 * written in the language, else from the language's golden sources
 * (test/fixtures/languages/) copied 200 times (marked "fixtures").
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ContextEngine } from "../dist/index.js";
import { LANGUAGES } from "../dist/languages/registry.js";
import { npmPackageCorpus } from "./corpus.js";
import { parseSeconds } from "./parse-floor.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const COMMIT_BENCH = process.env.CTX_BENCH_COMMIT_BENCH ?? join(ROOT, "../shared/commit-bench");
const CACHE = process.env.CTX_BENCH_CACHE ?? join(tmpdir(), "ctx-bench-cache");
/** The repository each language is measured on, where the commit benchmark has one. */
const REPOSITORIES: Readonly<Record<string, string>> = {
  typescript: "hono",
  python: "poetry",
  go: "gin",
  rust: "ripgrep",
  java: "jsoup",
  csharp: "polly",
  ruby: "rack",
  php: "monolog",
  c: "jq",
  cpp: "fmt",
  kotlin: "okio",
  swift: "swift-argument-parser",
};
const MAX_FILES = 400;
const FIXTURE_COPIES = 200;

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((file) => join(dir, file))
    .filter((file) => !file.includes("/.git/") && statSync(file).isFile());
}

/** A commit-bench repository's head tree, checked out once into the cache. */
function repositoryTree(name: string): string | null {
  const bundle = join(COMMIT_BENCH, `${name}.bundle`);
  if (!existsSync(bundle)) return null;
  const tree = join(CACHE, `commit-bench-${name}`);
  if (!existsSync(tree)) {
    execFileSync("git", ["clone", "--quiet", bundle, tree], { stdio: "ignore" });
  }
  return tree;
}

/** The files to index for a language, copied into `into`; and where they came from. */
function corpus(
  language: (typeof LANGUAGES)[number],
  into: string,
): { files: string[]; from: string } {
  const matches = (file: string) =>
    language.extensions.some((ext) => file.toLowerCase().endsWith(ext));
  const repository = REPOSITORIES[language.name];
  const tree =
    language.name === "javascript"
      ? npmPackageCorpus("express", "4.22.3")
      : repository
        ? repositoryTree(repository)
        : null;
  const picked: string[] = [];
  if (tree) {
    for (const file of listFiles(tree).filter(matches).slice(0, MAX_FILES)) {
      const target = join(into, relative(tree, file));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(file, target);
      picked.push(target);
    }
    return { files: picked, from: language.name === "javascript" ? "express" : (repository ?? "") };
  }
  const fixtures = join(ROOT, "test/fixtures/languages", language.name);
  const sources = existsSync(fixtures) ? listFiles(fixtures).filter(matches) : [];
  for (let copy = 0; copy < FIXTURE_COPIES && sources.length > 0; copy++) {
    for (const file of sources) {
      const target = join(into, `copy${copy}`, relative(fixtures, file));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(file, target);
      picked.push(target);
    }
  }
  return { files: picked, from: "fixtures" };
}

async function main(): Promise<void> {
  const rows: string[][] = [
    ["language", "corpus", "files", "KB", "index files/s", "parse floor files/s", "parse share"],
  ];
  for (const language of LANGUAGES) {
    const work = mkdtempSync(join(tmpdir(), `ctx-bench-${language.name}-`));
    try {
      const tree = join(work, "tree");
      mkdirSync(tree);
      const { files, from } = corpus(language, tree);
      if (files.length === 0) continue;
      const kb = files.reduce((sum, file) => sum + statSync(file).size, 0) / 1024;
      // One thread: the figure is the reader's own cost, not the machine's cores.
      writeFileSync(join(tree, "ctx.toml"), "[index]\nworkers = 0\n");
      const engine = await ContextEngine.open({
        start: tree,
        db: join(work, "index.db"),
        env: { XDG_CONFIG_HOME: work },
      });
      const started = performance.now();
      await engine.index([tree]);
      const seconds = (performance.now() - started) / 1000;
      await engine.close();
      const floor = await parseSeconds(files);
      rows.push([
        language.name,
        from,
        String(files.length),
        kb.toFixed(0),
        (files.length / seconds).toFixed(0),
        floor > 0 ? (files.length / floor).toFixed(0) : "-",
        floor > 0 ? `${((100 * floor) / seconds).toFixed(0)} %` : "-",
      ]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  for (const row of rows)
    console.log(row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  "));
}

await main();
