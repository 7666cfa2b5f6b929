import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EvalDataError, PathNotFoundError } from "../../src/core/errors.js";
import { readBeirDataset } from "../../src/eval/beir.js";
import { runEval } from "../../src/eval/run-eval.js";
import { unitGraph } from "../../src/eval/unit-graph.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { o200kCounter } from "../../src/tokens/o200k-counter.js";
import { defaultRanker } from "../helpers/eval-ranker.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const MINI = fileURLToPath(new URL("../fixtures/beir-mini", import.meta.url));

describe("runEval", () => {
  it("ranks a BEIR corpus through the pipeline and scores only judged queries", async () => {
    const dataset = await readBeirDataset(MINI);
    const report = await runEval(dataset, {
      label: "simple-keyword",
      rank: await defaultRanker(["simple-keyword"], MINI),
      ks: [1, 5],
      counter: o200kCounter,
      openStore: (file) => SqliteStore.open(file, { create: true }),
    });
    expect(report).toMatchObject({
      dataset: "beir-mini",
      strategy: "simple-keyword",
      queries: 3,
      units: 4,
    });
    expect(report.passAtK[1]).toBe(100);
    expect(report.ndcgAt10).toBe(100);
    expect(report.mrrAt10).toBe(100);
    expect(report.tokensPerQuery[1]).toBeGreaterThan(5);
  });

  it("reads each code unit's graph, and counts a unit ranked twice once", async () => {
    const pool = await unitGraph(
      "u2",
      "class ConnectionPool:\n    def acquire(self):\n        return 1\n",
    );
    expect(pool?.definitions.map((d) => d.name)).toEqual(["ConnectionPool", "acquire"]);
    expect(await unitGraph("u3", "The parser reads tokens and builds a syntax tree.")).toBeNull();

    const dataset = await readBeirDataset(MINI);
    const rank = await defaultRanker(["simple-keyword", "breadth-depth-navigator"], MINI);
    const options = {
      label: "both",
      ks: [1, 5],
      counter: o200kCounter,
      openStore: (file: string) => SqliteStore.open(file, { create: true }),
    };
    const once = await runEval(dataset, { ...options, rank });
    const twice = await runEval(dataset, {
      ...options,
      rank: async (store, query, depth) => {
        const fragments = await rank(store, query, depth);
        return fragments.flatMap((fragment) => [fragment, fragment]);
      },
    });
    expect(once.passAtK[5]).toBe(100);
    expect({ ...twice, queriesPerSecond: 0, indexSeconds: 0 }).toEqual({
      ...once,
      queriesPerSecond: 0,
      indexSeconds: 0,
    });
  });

  it("names the file and line of malformed data", async () => {
    const dir = tempDir();
    writeFiles(dir, {
      "corpus.jsonl": '{"_id": "u1", "text": "ok"}\n{"_id": "u2", "text": \n',
      "queries.jsonl": '{"_id": "q1", "text": "ok"}\n',
      "qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\tu1\t1\n",
    });
    await expect(readBeirDataset(dir)).rejects.toThrow(EvalDataError);
    await expect(readBeirDataset(dir)).rejects.toThrow(/corpus\.jsonl:2: not valid JSON/);
  });

  it("says which file is missing", async () => {
    const dir = tempDir();
    writeFiles(dir, { "corpus.jsonl": "" });
    await expect(readBeirDataset(dir)).rejects.toThrow(/queries\.jsonl: missing/);
    await expect(readBeirDataset(`${dir}/nope`)).rejects.toThrow(PathNotFoundError);
  });
});
