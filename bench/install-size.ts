/**
 * `npm run bench:install`: what installing ctx costs a user. Packs this
 * checkout, installs the tarball into an empty project offline (from the npm
 * cache that `npm ci` filled; the registry is asked only for package metadata
 * the cache lacks, which `npm ci` does not store), and prints the size of its node_modules, the
 * install time, and the time of a first `npx --no-install context-engine query` on a copy of three.js's
 * `src/` (1,000 files).
 */
import { execFileSync } from "node:child_process";
import { cpSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { threeJsCorpus } from "./corpus.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "ctx-install-"));

/** The environment of a user's shell: none of this checkout's npm settings. */
const userEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.startsWith("npm_")),
);

function npm(args: string[], cwd: string): string {
  return execFileSync("npm", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...userEnv, npm_config_update_notifier: "false" },
  });
}

function seconds(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Bytes of the files under a folder (links counted as links, as du counts them apparently). */
function treeBytes(folder: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    const stats = lstatSync(join(entry.parentPath, entry.name));
    if (stats.isFile()) {
      bytes += stats.size;
      files += 1;
    }
  }
  return { bytes, files };
}

function largest(modules: string, count: number): string[] {
  const sizes: [string, number][] = [];
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const names = entry.name.startsWith("@")
      ? readdirSync(join(modules, entry.name)).map((name) => `${entry.name}/${name}`)
      : [entry.name];
    for (const name of names) sizes.push([name, treeBytes(join(modules, name)).bytes]);
  }
  return sizes
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, bytes]) => `${name} ${(bytes / 1e6).toFixed(1)} MB`);
}

try {
  const packed = JSON.parse(npm(["pack", "--json", "--pack-destination", work], ROOT)) as {
    filename: string;
    size: number;
    unpackedSize: number;
  }[];
  const tarball = join(work, packed[0]?.filename ?? "");
  console.log(
    `tarball: ${((packed[0]?.size ?? 0) / 1e6).toFixed(1)} MB (${((packed[0]?.unpackedSize ?? 0) / 1e6).toFixed(1)} MB unpacked)`,
  );

  const app = join(work, "app");
  cpSync(join(threeJsCorpus(), "src"), join(app, "sample"), { recursive: true });
  writeFileSync(join(app, "package.json"), '{ "name": "app", "private": true }\n');
  const installStarted = process.hrtime.bigint();
  npm(["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], app);
  const installSeconds = seconds(installStarted);
  const modules = join(app, "node_modules");
  const { bytes, files } = treeBytes(modules);
  console.log(
    `npm install (from the cache): ${installSeconds.toFixed(1)} s; node_modules ${(bytes / 1e6).toFixed(1)} MB in ${files} files (target ≤ 150 MB)`,
  );
  console.log(`  largest: ${largest(modules, 8).join(", ")}`);

  const sample = join(app, "sample");
  const run = (command: string, args: string[]): { seconds: number; output: string } => {
    const started = process.hrtime.bigint();
    const output = execFileSync(command, args, {
      cwd: sample,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: userEnv,
    });
    return { seconds: seconds(started), output };
  };
  const task = "how does the renderer decide which objects are visible";
  const first = run("npx", ["--no-install", "context-engine", "query", task]);
  console.log(
    `first npx --no-install context-engine query on three.js src/ (${treeBytes(sample).files} files; the index is built first): ${first.seconds.toFixed(2)} s, ${first.output.length} characters of context`,
  );
  const again = run("npx", ["--no-install", "context-engine", "query", "parse a GLTF file"]);
  const direct = run(join(modules, ".bin", "ctx"), ["query", "parse a GLTF file"]);
  console.log(
    `next query, index fresh: ${again.seconds.toFixed(2)} s through npx, ${direct.seconds.toFixed(2)} s running node_modules/.bin/ctx`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
