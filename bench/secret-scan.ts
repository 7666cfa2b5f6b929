/**
 * What secret detection costs an index run and which files it keeps out.
 *
 *   tsx bench/secret-scan.ts DIR|FILE.jsonl...
 *
 * For each folder (a checkout): the files `ctx index` would read (for a BEIR
 * `documents.jsonl` or `corpus.jsonl`, each line's text as a file named by its id), the time the
 * content check takes over all of them (with its prefilter, as indexing runs
 * it), the time secretlint would take on every file without the prefilter, a
 * check that the prefilter let through every file secretlint reports, and the
 * files kept out (by name, and by content with what was found and on which line).
 */
import { readFileSync } from "node:fs";
import { decodeText } from "../src/ingest/hydrate/decode-text.js";
import { DEFAULT_LIMITS, discoverFiles } from "../src/ingest/hydrate/discover-files.js";
import {
  findCertainSecret,
  needsSecretlint,
  secretlintRanges,
} from "../src/secrets/find-secrets.js";
import { isSecretFile } from "../src/secrets/secret-files.js";

const roots = process.argv.slice(2);
if (roots.length === 0) {
  console.error("usage: tsx bench/secret-scan.ts DIR...");
  process.exit(2);
}

const totals = { files: 0, bytes: 0, checkMs: 0, fullMs: 0, byName: 0, byContent: 0, missed: 0 };
// Loads secretlint once, outside the timings (indexing pays it once per thread).
await secretlintRanges("ghp_x", "warm-up.txt");
for (const root of roots) {
  const texts = root.endsWith(".jsonl") ? jsonlTexts(root) : await folderTexts(root);
  const byName = texts.filter(({ path }) => isSecretFile(path)).map(({ path }) => path);
  const byContent: string[] = [];
  let started = performance.now();
  for (const { path, text } of texts) {
    if (isSecretFile(path)) continue;
    const found = await findCertainSecret(text, path);
    if (found) {
      const line = text.slice(0, found.start).split("\n").length;
      byContent.push(`${path}:${line} (${found.kind})`);
    }
  }
  const checkMs = performance.now() - started;
  // Every file through secretlint, to time it and to check the prefilter never hid a finding.
  let missed = 0;
  started = performance.now();
  for (const { path, text } of texts) {
    const full = await secretlintRanges(text, path);
    if (full.length > 0 && !needsSecretlint(text, path)) {
      missed++;
      console.log(`  prefilter missed ${path}`);
    }
  }
  const fullMs = performance.now() - started;
  const bytes = texts.reduce((sum, { text }) => sum + text.length, 0);
  console.log(
    `${root}: ${texts.length} files, ${(bytes / 1e6).toFixed(1)} MB; content check ${checkMs.toFixed(0)} ms` +
      ` (secretlint on every file: ${fullMs.toFixed(0)} ms); kept out by name ${byName.length}, by content ${byContent.length}`,
  );
  for (const path of byName) console.log(`  name: ${path}`);
  for (const entry of byContent) console.log(`  content: ${entry}`);
  totals.files += texts.length;
  totals.bytes += bytes;
  totals.checkMs += checkMs;
  totals.fullMs += fullMs;
  totals.byName += byName.length;
  totals.byContent += byContent.length;
  totals.missed += missed;
}
console.log(
  `all: ${totals.files} files, ${(totals.bytes / 1e6).toFixed(1)} MB; content check ${totals.checkMs.toFixed(0)} ms` +
    ` (${((totals.checkMs / totals.bytes) * 1e6).toFixed(1)} ms/MB), secretlint on every file ${totals.fullMs.toFixed(0)} ms;` +
    ` kept out by name ${totals.byName}, by content ${totals.byContent}; prefilter misses ${totals.missed}`,
);

async function folderTexts(root: string): Promise<{ path: string; text: string }[]> {
  const discovery = await discoverFiles(root, { ...DEFAULT_LIMITS, includeSecrets: true });
  const texts: { path: string; text: string }[] = [];
  for (const file of discovery.files) {
    const decoded = decodeText(readFileSync(file.absPath));
    if ("text" in decoded) texts.push({ path: file.relPath, text: decoded.text });
  }
  return texts;
}

function jsonlTexts(file: string): { path: string; text: string }[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => {
      const row = JSON.parse(line) as { _id: string; text: string };
      return { path: row._id, text: row.text };
    });
}
