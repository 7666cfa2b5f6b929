import { readFileSync } from "node:fs";
import { languageOf } from "../dist/languages/registry.js";
import { parserFor } from "../dist/parse/tree-sitter-loader.js";

/**
 * Seconds one thread spends only parsing the files with tree-sitter: the part of
 * indexing no change to our own code can shorten, for reading the index time.
 */
export async function parseSeconds(files: readonly string[]): Promise<number> {
  let seconds = 0;
  for (const file of files) {
    const ready = await parserFor(languageOf(file));
    if (!ready) continue;
    const text = readFileSync(file, "utf8");
    const started = performance.now();
    ready.parse(text)?.delete();
    seconds += (performance.now() - started) / 1000;
  }
  return seconds;
}
