// Copies the tree-sitter grammars the chunker uses into dist/grammars (part of
// `npm run build`), with their packages' licences: an installed ctx then needs
// neither grammar package, which hold 46 MB of grammars for 12 languages' 20 MB.
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { GRAMMARS } from "../dist/parse/languages.js";
import { BUNDLED_GRAMMARS } from "../dist/parse/tree-sitter-loader.js";

const require = createRequire(import.meta.url);
mkdirSync(BUNDLED_GRAMMARS, { recursive: true });
const packages = new Set();
for (const spec of Object.values(GRAMMARS)) {
  copyFileSync(require.resolve(spec.wasm), join(BUNDLED_GRAMMARS, basename(spec.wasm)));
  packages.add(spec.wasm.split("/").slice(0, 2).join("/"));
}
for (const name of packages) {
  const folder = dirname(require.resolve(`${name}/package.json`));
  copyFileSync(join(folder, "LICENSE"), join(BUNDLED_GRAMMARS, `LICENSE.${name.replace("/", "__")}`));
}
