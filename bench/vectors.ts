/**
 * Vector search at 100k × 384 clustered unit vectors (1,000 topics, like real
 * embeddings; uniform random ones have no near neighbours at all): exact search in sqlite-vec
 * (what the store does) against an HNSW index in usearch, with ANN recall@10.
 * Also embedding throughput per embedder adapter on real chunk texts.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { Index, MetricKind, ScalarKind } from "usearch";
import { OnnxEmbedder } from "../dist/embed/onnx-embedder.js";
import { OpenAiEmbedder } from "../dist/embed/openai-embedder.js";
import { UseLiteEmbedder } from "../dist/embed/use-lite-embedder.js";
import { percentile } from "./percentile.js";

const COUNT = Number(process.env.CTX_BENCH_VECTORS ?? 100_000);
const DIMENSIONS = 384;
const QUERIES = 200;

function noise(seed: number): Float32Array {
  let state = (seed * 2654435761) >>> 0;
  const vector = new Float32Array(DIMENSIONS);
  for (let i = 0; i < DIMENSIONS; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    vector[i] = state / 4294967296 - 0.5;
  }
  return vector;
}

const TOPICS = 1000;
const centers = Array.from({ length: TOPICS }, (_, topic) => noise(10_000_000 + topic));

/** A unit vector near one of the topic centres. */
function randomUnit(seed: number): Float32Array {
  const center = centers[seed % TOPICS] as Float32Array;
  const jitter = noise(seed);
  const vector = new Float32Array(DIMENSIONS);
  let norm = 0;
  for (let i = 0; i < DIMENSIONS; i++) {
    const value = (center[i] as number) + 0.5 * (jitter[i] as number);
    vector[i] = value;
    norm += value * value;
  }
  for (let i = 0; i < DIMENSIONS; i++) vector[i] = (vector[i] as number) / Math.sqrt(norm);
  return vector;
}

const work = mkdtempSync(join(tmpdir(), "ctx-bench-vectors-"));
try {
  const db = new Database(join(work, "vectors.db"));
  sqliteVec.load(db);
  db.exec(
    `CREATE VIRTUAL TABLE v USING vec0(embedding float[${DIMENSIONS}] distance_metric=cosine)`,
  );
  const insert = db.prepare("INSERT INTO v (rowid, embedding) VALUES (?, ?)");
  let started = performance.now();
  db.transaction(() => {
    for (let i = 1; i <= COUNT; i++) insert.run(BigInt(i), randomUnit(i));
  })();
  const insertSeconds = (performance.now() - started) / 1000;

  started = performance.now();
  const index = new Index({
    metric: MetricKind.Cos,
    connectivity: 16,
    dimensions: DIMENSIONS,
    quantization: ScalarKind.F32,
    expansion_add: 128,
    expansion_search: 128,
    multi: false,
  });
  for (let i = 1; i <= COUNT; i++) index.add(BigInt(i), randomUnit(i));
  const buildSeconds = (performance.now() - started) / 1000;

  const knn = db.prepare("SELECT rowid FROM v WHERE embedding MATCH ? AND k = 10");
  const exactTimes: number[] = [];
  const annTimes: number[] = [];
  let hits = 0;
  for (let q = 0; q < QUERIES; q++) {
    const query = randomUnit(COUNT + 1 + q);
    let t = performance.now();
    const exact = (knn.all(query) as { rowid: number }[]).map((row) => BigInt(row.rowid));
    exactTimes.push(performance.now() - t);
    t = performance.now();
    const approximate = index.search(query, 10, 0);
    annTimes.push(performance.now() - t);
    const found = new Set(Array.from(approximate.keys, (key) => BigInt(key)));
    hits += exact.filter((key) => found.has(key)).length;
  }
  exactTimes.sort((a, b) => a - b);
  annTimes.sort((a, b) => a - b);
  db.close();
  console.log(`vectors                            ${COUNT} × ${DIMENSIONS}`);
  console.log(`sqlite-vec insert                  ${insertSeconds.toFixed(1)} s`);
  console.log(
    `sqlite-vec exact query p50 / p99   ${percentile(exactTimes, 0.5).toFixed(1)} / ${percentile(exactTimes, 0.99).toFixed(1)} ms`,
  );
  console.log(`usearch HNSW build                 ${buildSeconds.toFixed(1)} s`);
  console.log(
    `usearch ANN query p50 / p99        ${percentile(annTimes, 0.5).toFixed(2)} / ${percentile(annTimes, 0.99).toFixed(2)} ms`,
  );
  console.log(`ANN recall@10 against exact        ${(hits / (QUERIES * 10)).toFixed(3)}`);

  const texts = Array.from(
    { length: 64 },
    (_, i) =>
      `export function handler${i}(request) {\n  // validate the request and retry on failure\n  return retry(() => fetch(request.url), { attempts: ${i % 5} });\n}`,
  );
  const throughput = async (
    name: string,
    embedder: { embed(texts: string[]): Promise<Float32Array[]> },
  ) => {
    await embedder.embed(texts.slice(0, 2));
    const begun = performance.now();
    await embedder.embed(texts);
    const rate = texts.length / ((performance.now() - begun) / 1000);
    console.log(`${`${name}: embedding throughput`.padEnd(45)}${rate.toFixed(1)} chunks/s`);
  };
  await throughput("use-lite", new UseLiteEmbedder());
  const tinyBert = join(work, "tiny-bert");
  try {
    const script = fileURLToPath(
      new URL("../test/fixtures/onnx/make-tiny-bert.py", import.meta.url),
    );
    execFileSync("/usr/bin/python3", [script, tinyBert]);
    await throughput(
      "onnx (tiny random BERT)",
      new OnnxEmbedder({
        model: tinyBert,
        allowDownload: false,
        batchSize: 32,
        maxInputTokens: 512,
        quality: 0.5,
        baseDir: work,
      }),
    );
  } catch (error) {
    console.log(
      `onnx embedding throughput          not measured (${(error as Error).message.split("\n")[0]})`,
    );
  }
  const baseUrl = process.env.CTX_BENCH_OPENAI_BASE_URL;
  if (baseUrl) {
    const options = {
      model: process.env.CTX_BENCH_OPENAI_MODEL ?? "text-embedding-3-small",
      baseUrl,
      apiKey: process.env.OPENAI_API_KEY ?? "not-needed",
      batchSize: 32,
      maxInputTokens: 512,
      quality: 0.7,
      timeoutMs: 60_000,
      retry: { maxRetries: 3, baseMs: 1000, maxMs: 30_000 },
    };
    const dimensions = await OpenAiEmbedder.probeDimensions(options);
    await throughput("openai-compatible", new OpenAiEmbedder({ ...options, dimensions }));
  } else {
    console.log(
      "openai-compatible throughput       not measured (set CTX_BENCH_OPENAI_BASE_URL to a server)",
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
