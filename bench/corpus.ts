import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A real repository from npm, unpacked once into a cache folder:
 * `npm pack three@0.187.0` (about 1,270 files, 11.5 MB of JavaScript once
 * `build/` and files over 256 KB are skipped).
 */
export function threeJsCorpus(): string {
  return npmPackageCorpus("three", "0.187.0");
}

/** `npm pack NAME@VERSION`, unpacked once into the cache folder; returns the package's folder. */
export function npmPackageCorpus(name: string, version: string): string {
  const cache = process.env.CTX_BENCH_CACHE ?? join(tmpdir(), "ctx-bench-cache");
  const dir = join(cache, `${name}-${version}`);
  const root = join(dir, "package");
  if (existsSync(join(root, "package.json"))) return root;
  mkdirSync(dir, { recursive: true });
  execFileSync("npm", ["pack", `${name}@${version}`, "--silent"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
  });
  execFileSync("tar", ["xzf", `${name}-${version}.tgz`], { cwd: dir });
  return root;
}
