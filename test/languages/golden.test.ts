import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { FileGraph } from "../../src/core/graph.js";
import type { ChunkDraft } from "../../src/core/types.js";
import { DocumentChunker } from "../../src/ingest/chunk/chunk-document.js";
import { LANGUAGES, languageOf } from "../../src/languages/registry.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";

/**
 * One folder of sources per language (test/fixtures/languages/<name>/), each
 * file's chunks, definitions, references and imports written out beside it as
 * `<file>.golden`: a change to what ctx reads of a language shows as a diff
 * there. The samples of the shared fixture project (test/fixtures/code/) are
 * read too, their goldens kept in their language's folder.
 * `npx vitest run test/languages -u` rewrites them after a deliberate change.
 */
const FIXTURES = fileURLToPath(new URL("../fixtures/languages", import.meta.url));
const SAMPLES = fileURLToPath(new URL("../fixtures/code", import.meta.url));
// Merging nothing: every cut the chunker makes shows.
const chunker = new DocumentChunker(
  { maxTokens: 800, minTokens: 1, overlapLines: 3 },
  o200kCounter,
);

function golden(
  language: string,
  method: string,
  chunks: readonly ChunkDraft[],
  graph: FileGraph | null,
): string {
  const lines = [`language ${language}, chunked by ${method}`, "", "chunks:"];
  for (const chunk of chunks) {
    const parent = chunk.parent === null ? "" : ` in ${chunks[chunk.parent]?.symbol ?? "?"}`;
    lines.push(`  ${chunk.startLine}-${chunk.endLine} ${chunk.kind} ${chunk.symbol}${parent}`);
  }
  if (!graph) return `${lines.join("\n")}\n`;
  lines.push("", "definitions:");
  for (const definition of graph.definitions) {
    const owner = definition.parent ? ` in ${definition.parent}` : "";
    lines.push(
      `  ${definition.startLine}-${definition.endLine} ${definition.kind} ${definition.name}${owner}`,
      ...definition.signature.split("\n").map((line) => `      | ${line}`),
    );
  }
  lines.push("", "references:");
  const references = [...graph.references].sort(
    (a, b) => a.name.localeCompare(b.name) || a.kind.localeCompare(b.kind),
  );
  for (const reference of references) {
    const member = reference.member ? " (member)" : "";
    lines.push(`  ${reference.kind} ${reference.name}${member} ${reference.lines.join(",")}`);
  }
  lines.push("", "imports:");
  for (const statement of graph.imports) {
    const names = statement.names.length > 0 ? ` {${statement.names.join(", ")}}` : "";
    const targets = statement.targets.map((target) => `${target.match} ${target.path}`).join(", ");
    lines.push(`  ${statement.line} ${statement.specifier}${names} -> ${targets || "(outside)"}`);
  }
  return `${lines.join("\n")}\n`;
}

describe("every language reads its golden sources as recorded", () => {
  const folders = readdirSync(FIXTURES);
  it("has a fixture folder for each language", () => {
    expect(
      LANGUAGES.map((language) => language.name).filter((name) => !folders.includes(name)),
    ).toEqual([]);
  });
  const samples = readdirSync(SAMPLES);
  for (const language of folders) {
    const own = readdirSync(join(FIXTURES, language))
      .filter((name) => !name.endsWith(".golden"))
      .map((name) => join(FIXTURES, language, name));
    const shared = samples
      .filter((name) => languageOf(name) === language)
      .map((name) => join(SAMPLES, name));
    for (const path of [...own, ...shared]) {
      const file = basename(path);
      it(`${language}/${file}`, async () => {
        const chunked = await chunker.chunk(`src/${file}`, readFileSync(path, "utf8"));
        expect(chunked.language).toBe(language);
        expect(chunked.method).toBe("syntax");
        await expect(
          golden(chunked.language, chunked.method, chunked.chunks, chunked.graph),
        ).toMatchFileSnapshot(join(FIXTURES, language, `${file}.golden`));
      });
    }
  }
});
