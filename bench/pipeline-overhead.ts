/**
 * The strategy pipeline's overhead per request (selection, allocation, executor
 * with timeout and breaker bookkeeping, score normalisation, dedupe) over calling
 * the keyword strategy directly, on three.js. Target: under 2 ms at p50.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ContextEngine } from "../dist/index.js";
import { threeJsCorpus } from "./corpus.js";
import { percentile } from "./percentile.js";

const TASKS = [
  "how does Vector3 apply a quaternion",
  "WebGLRenderer render loop",
  "load a GLTF model with textures",
  "compute bounding sphere of geometry",
  "shadow map bias",
  "animation mixer clip action",
  "raycaster intersect objects",
  "material needsUpdate uniforms",
];

const corpus = threeJsCorpus();
const work = mkdtempSync(join(tmpdir(), "ctx-bench-pipeline-"));
try {
  const engine = await ContextEngine.open({
    start: corpus,
    db: join(work, "index.db"),
    env: { XDG_CONFIG_HOME: work },
  });
  await engine.index([corpus]);
  const keyword = engine.registry.get("simple-keyword");
  if (!keyword) throw new Error("simple-keyword is not registered");
  const budget = 8000;
  const direct: number[] = [];
  const piped: number[] = [];
  for (let round = 0; round < 25; round++) {
    for (const task of TASKS) {
      let started = performance.now();
      await keyword.assemble(
        { task, budget, maxFragments: 100 },
        { text: engine.store.documents },
        { total: budget, allocated: budget },
      );
      direct.push(performance.now() - started);
      started = performance.now();
      await engine.pipeline.run({ task, budget }, { text: engine.store.documents }, [
        "simple-keyword",
      ]);
      piped.push(performance.now() - started);
    }
  }
  await engine.close();
  direct.sort((a, b) => a - b);
  piped.sort((a, b) => a - b);
  const overhead = percentile(piped, 0.5) - percentile(direct, 0.5);
  console.log(`requests                           ${direct.length}`);
  console.log(
    `direct strategy call p50 / p99     ${percentile(direct, 0.5).toFixed(2)} / ${percentile(direct, 0.99).toFixed(2)} ms`,
  );
  console.log(
    `through the pipeline p50 / p99     ${percentile(piped, 0.5).toFixed(2)} / ${percentile(piped, 0.99).toFixed(2)} ms`,
  );
  console.log(`pipeline overhead at p50           ${overhead.toFixed(2)} ms (target < 2 ms)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
