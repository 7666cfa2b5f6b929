/**
 * Save-to-searchable latency under a watcher: three.js indexed, a ProjectWatcher
 * running, then 60 edits one after another (a new function appended to a file),
 * each timed from the write until a keyword search finds it. Prints p50/p99,
 * and the time of one batched refresh after 300 files change at once.
 */
import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ContextEngine, ProjectWatcher, type WatchReport } from "../dist/index.js";
import { threeJsCorpus } from "./corpus.js";
import { percentile } from "./percentile.js";

const EDITS = 60;

const work = mkdtempSync(join(tmpdir(), "ctx-bench-watch-"));
try {
  const root = join(work, "three");
  cpSync(threeJsCorpus(), root, { recursive: true });
  const engine = await ContextEngine.open({
    start: root,
    cwd: root,
    env: { XDG_CONFIG_HOME: work },
  });
  await engine.index([root]);
  const reports: WatchReport[] = [];
  const watcher = await ProjectWatcher.start(engine, {
    onReport: (report) => reports.push(report),
  });
  const files = readdirSync(join(root, "src/math"))
    .filter((name) => name.endsWith(".js"))
    .map((name) => join(root, "src/math", name));
  const latencies: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    // One lower-case word: an identifier with parts would match the earlier probes' parts.
    const word = `zq${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}probe`;
    appendFileSync(
      files[i % files.length] as string,
      `\nexport function ${word}() { return ${i}; }\n`,
    );
    const started = performance.now();
    for (;;) {
      const hits = await engine.search(word, 1);
      if (hits.some((hit) => hit.chunk.content.includes(word))) break;
      if (performance.now() - started > 30_000)
        throw new Error(`edit ${i} never became searchable`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    latencies.push(performance.now() - started);
    await watcher.idle();
  }
  latencies.sort((a, b) => a - b);
  const ms = (value: number) => `${Math.round(value)} ms`;
  console.log(
    `save → searchable over ${EDITS} edits (debounce ${engine.config.watch.debounceMs} ms): p50 ${ms(percentile(latencies, 0.5))}, p99 ${ms(percentile(latencies, 0.99))}, max ${ms(latencies.at(-1) ?? 0)}`,
  );

  const batchFiles = readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".js"))
    .slice(0, 300);
  reports.length = 0;
  const started = performance.now();
  for (const name of batchFiles) appendFileSync(join(root, "src", name), "\n// touched\n");
  for (;;) {
    await watcher.idle();
    const changed = reports.reduce(
      (sum, report) => sum + (report.kind === "indexed" ? report.changed : 0),
      0,
    );
    if (changed >= batchFiles.length) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const batches = reports.filter((report) => report.kind === "indexed").length;
  console.log(
    `${batchFiles.length} files changed at once: searchable after ${ms(performance.now() - started)} in ${batches} batch(es)`,
  );
  await watcher.close();
  await engine.close();
} finally {
  rmSync(work, { recursive: true, force: true });
}
