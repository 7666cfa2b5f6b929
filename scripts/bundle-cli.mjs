// Bundles the CLI (part of `npm run build`, after tsc): tsc's dist/cli/main.js
// becomes one file (dist/cli/run.js) plus the chunks its lazy imports load, all
// in dist/cli, and dist/cli/main.js becomes the few lines that start it
// (scripts/cli-entry.mjs). A process that runs the CLI then reads a handful of
// files instead of ~270 modules: an up-to-date `ctx query` started ~100 ms
// sooner (of ~570) on the build machine. The library (dist/index.js) stays
// tsc's output, and the worker threads load their own unbundled modules by path.
//
// Modules find their files (the token table, grammars, workers, package.json)
// from import.meta.url; in a bundle that would be the chunk's URL. Every chunk
// sits in dist/cli, so each module's own URL is rewritten as its path from
// there, and the files it names are found where they always were.
//
// The metafile (which module went into which chunk) is written beside the
// build, not into the package: the start-up test maps the chunks a process
// loaded back to the modules in them.
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { build } from "esbuild";

const DIST = resolve("dist");
const OUTDIR = join(DIST, "cli");
const CHUNK_PREFIX = "bundle-";
const METAFILE = resolve(".cache/cli-bundle-meta.json");

const ownUrls = {
  name: "own-module-urls",
  setup(builder) {
    builder.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(DIST + sep)) return undefined;
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.url")) return { contents: text, loader: "js" };
      const fromOutdir = relative(OUTDIR, args.path).split(sep).join("/");
      const ownUrl = `new URL(${JSON.stringify(fromOutdir)}, import.meta.url).href`;
      return { contents: text.replaceAll("import.meta.url", ownUrl), loader: "js" };
    });
  },
};

for (const name of await readdir(OUTDIR)) {
  if (name.startsWith(CHUNK_PREFIX)) await rm(join(OUTDIR, name));
}
const result = await build({
  entryPoints: { run: join(OUTDIR, "main.js") },
  outdir: OUTDIR,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: `${CHUNK_PREFIX}[hash]`,
  format: "esm",
  platform: "node",
  target: "node20",
  // Dependencies load from node_modules as they are: native modules, optional peers.
  packages: "external",
  plugins: [ownUrls],
  metafile: true,
  legalComments: "none",
  logLevel: "warning",
});
// The bin: a few lines that turn Node's compile cache on, then load the bundle.
await copyFile(resolve("scripts/cli-entry.mjs"), join(OUTDIR, "main.js"));
await rm(join(OUTDIR, "main.js.map"), { force: true });
await rm(join(OUTDIR, "main.d.ts.map"), { force: true });
await mkdir(resolve(".cache"), { recursive: true });
await writeFile(METAFILE, JSON.stringify(result.metafile));
