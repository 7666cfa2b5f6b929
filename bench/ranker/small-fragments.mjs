#!/usr/bin/env node
/**
 * Counts, in answers kept by `kept-commit-bench.py query --answers-out DIR`
 * (every JSON file under the folders given), the fragments of 8 tokens or
 * fewer that name nothing (no code line with an identifier outside comments,
 * headings, preambles and strings), by the packer's own rule in dist/. The
 * issue's bar is none.
 *
 *   node bench/ranker/small-fragments.mjs /tmp/answers-cb /tmp/answers-swe
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { worthItsTokens } from "../../dist/assemble/worth-its-tokens.js";

function* answerFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* answerFiles(path);
    else if (name.endsWith(".json")) yield path;
  }
}

let answers = 0;
let fragments = 0;
let small = 0;
const worthless = [];
for (const dir of process.argv.slice(2)) {
  for (const file of answerFiles(dir)) {
    const answer = JSON.parse(readFileSync(file, "utf8"));
    answers++;
    for (const fragment of answer.fragments ?? []) {
      fragments++;
      if (fragment.tokens > 8) continue;
      small++;
      if (!worthItsTokens(fragment.content ?? "", fragment.tokens))
        worthless.push(
          `${file}: ${fragment.path}:${fragment.startLine} ${JSON.stringify(fragment.content)}`,
        );
    }
  }
}
process.stdout.write(
  `${answers} answers, ${fragments} fragments, ${small} of 8 tokens or fewer, ${worthless.length} of them naming nothing\n`,
);
for (const line of worthless.slice(0, 20)) process.stdout.write(`  ${line}\n`);
process.exit(worthless.length === 0 ? 0 : 1);
