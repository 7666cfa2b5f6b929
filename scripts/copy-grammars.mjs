// Copies the tree-sitter grammars the chunker uses into dist/grammars (part of
// `npm run build`), with their licences: an installed ctx then needs neither
// grammar package, which hold 46 MB of grammars for 12 languages' 20 MB. The
// grammars kept in this repository (grammars/) come with their licences.
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { VENDORED } from "../dist/languages/language.js";
import { GRAMMARS } from "../dist/languages/registry.js";
import { BUNDLED_GRAMMARS } from "../dist/parse/tree-sitter-loader.js";

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL("..", import.meta.url));
mkdirSync(BUNDLED_GRAMMARS, { recursive: true });
const packages = new Set();
for (const spec of Object.values(GRAMMARS)) {
  const vendored = spec.wasm.startsWith(`${VENDORED}/`);
  const from = vendored ? join(root, spec.wasm) : require.resolve(spec.wasm);
  copyFileSync(from, join(BUNDLED_GRAMMARS, basename(spec.wasm)));
  if (!vendored) packages.add(spec.wasm.split("/").slice(0, 2).join("/"));
}
for (const name of packages) {
  const folder = dirname(require.resolve(`${name}/package.json`));
  copyFileSync(join(folder, "LICENSE"), join(BUNDLED_GRAMMARS, `LICENSE.${name.replace("/", "__")}`));
}
for (const file of readdirSync(join(root, VENDORED))) {
  if (file.startsWith("LICENSE.")) copyFileSync(join(root, VENDORED, file), join(BUNDLED_GRAMMARS, file));
}
