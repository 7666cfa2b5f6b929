import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chunkChecksum } from "../core/chunk-checksum.js";
import { ContextBatchError, type ContextGenerator } from "../core/context-generator.js";
import { embedHashOf } from "../core/embed-text.js";
import type { Embedder } from "../core/embedder.js";
import { CtxError } from "../core/errors.js";
import type { ContextFragment } from "../core/fragment.js";
import type { DocumentToStore, Store } from "../core/store.js";
import type { TokenCounter } from "../core/token-counter.js";
import { embedIndex } from "../embed/embed-index.js";
import { indexText } from "../text/code-tokenizer.js";
import type { BeirDataset } from "./beir.js";
import { type CorpusFile, corpusFiles, UnitLocator } from "./corpus-files.js";
import { mrrAtK, ndcgAtK, passAtK } from "./metrics.js";
import { unitGraph } from "./unit-graph.js";

export interface EvalOptions {
  /** What is measured, for the report: a strategy name or names joined by "+". */
  readonly label: string;
  /** Ranks the store's units for a query, best first (at least `depth` when there are). */
  readonly rank: (store: Store, query: string, depth: number) => Promise<ContextFragment[]>;
  /** Cut-offs for Pass@k and tokens per query; nDCG and MRR are always @10. */
  readonly ks: readonly number[];
  readonly counter: TokenCounter;
  /** Opens an empty store at a file path (or elsewhere); the harness deletes the file afterwards. */
  readonly openStore: (file: string) => Store | Promise<Store>;
  readonly onProgress?: (phase: "index" | "query", done: number, total: number) => void;
  /** Writes a context for every unit (its document from documents.jsonl) before ranking. */
  readonly contextualize?: ContextGenerator;
  /** Embeds every unit (with its context) before ranking, for vector strategies. */
  readonly embedder?: Embedder;
  /** More rankings scored on the same index (each strategy alone, say), reported in `compared`. */
  readonly compare?: readonly { readonly label: string; readonly rank: EvalOptions["rank"] }[];
}

/** A judged query whose relevant units a ranking left out of its top k (the largest k). */
export interface MissedQuery {
  readonly id: string;
  readonly text: string;
  /** Ids of its relevant units. */
  readonly relevant: readonly string[];
  /** The ranking's first few units instead. */
  readonly top: readonly string[];
}

export interface EvalReport {
  readonly dataset: string;
  readonly strategy: string;
  /** Queries that have relevance judgements (the others are not scored). */
  readonly queries: number;
  /** Percentages, 0..100, keyed by k. */
  readonly passAtK: Readonly<Record<number, number>>;
  readonly ndcgAt10: number;
  readonly mrrAt10: number;
  readonly queriesPerSecond: number;
  /** Mean tokens of the top k units per query, keyed by k. */
  readonly tokensPerQuery: Readonly<Record<number, number>>;
  readonly units: number;
  /** Seconds to index the corpus, contexts included. */
  readonly indexSeconds: number;
  /** Contexts written for the units, when a generator was given. */
  readonly contexts: {
    readonly generator: string;
    readonly written: number;
    /** Units the generator had nothing to say of (a licence header has no structure). */
    readonly empty: number;
    readonly failed: number;
  } | null;
  /** Queries none of whose relevant units reached the top k (the largest k). */
  readonly missed: readonly MissedQuery[];
  /** The `compare` rankings' reports, on the same index. */
  readonly compared: readonly EvalReport[];
}

/**
 * Indexes a BEIR corpus (one unit per line, pre-chunked) into a temporary store,
 * ranks it for every judged query, and scores the rankings.
 */
export async function runEval(dataset: BeirDataset, options: EvalOptions): Promise<EvalReport> {
  const dir = mkdtempSync(join(tmpdir(), "ctx-eval-"));
  let store: Store;
  try {
    store = await options.openStore(join(dir, "eval.db"));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  try {
    const indexStart = performance.now();
    const files = corpusFiles(dataset);
    const unitTokens = await indexCorpus(store, dataset.dir, files, options);
    const contexts = options.contextualize
      ? await contextualizeCorpus(store, files, dataset, options.contextualize)
      : null;
    if (options.embedder) {
      const embedded = await embedIndex(store, options.embedder);
      if (embedded.error)
        throw new CtxError("embedding", `embedding the corpus failed: ${embedded.error}`);
    }
    const indexSeconds = (performance.now() - indexStart) / 1000;

    const scored = async (label: string, rank: EvalOptions["rank"]): Promise<EvalReport> => ({
      ...(await scoreRanking(store, dataset, rank, new UnitLocator(files), unitTokens, options)),
      strategy: label,
      units: dataset.corpus.length,
      indexSeconds: round(indexSeconds),
      contexts,
      compared: [],
    });
    const main = await scored(options.label, options.rank);
    const compared: EvalReport[] = [];
    for (const other of options.compare ?? []) compared.push(await scored(other.label, other.rank));
    return { ...main, compared };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Ranks every judged query and scores the rankings. */
async function scoreRanking(
  store: Store,
  dataset: BeirDataset,
  rank: EvalOptions["rank"],
  locator: UnitLocator,
  unitTokens: ReadonlyMap<string, number>,
  options: EvalOptions,
): Promise<Omit<EvalReport, "strategy" | "units" | "indexSeconds" | "contexts" | "compared">> {
  const judged = dataset.queries.filter((query) => dataset.qrels.has(query.id));
  const depth = Math.max(10, ...options.ks);
  const widest = Math.max(...options.ks);
  const missed: MissedQuery[] = [];
  const sums = {
    ndcg: 0,
    mrr: 0,
    pass: new Map<number, number>(),
    tokens: new Map<number, number>(),
  };
  const queryStart = performance.now();
  for (const [index, query] of judged.entries()) {
    const fragments = await rank(store, query.text, 2 * depth);
    // A unit can come back more than once (its chunk, and a definition in it): its best place counts.
    const ranked = [...new Set(fragments.flatMap((fragment) => locator.unitsOf(fragment)))];
    const relevant = dataset.qrels.get(query.id) ?? new Map<string, number>();
    sums.ndcg += ndcgAtK(ranked, relevant, 10);
    sums.mrr += mrrAtK(ranked, relevant, 10);
    for (const k of options.ks) {
      sums.pass.set(k, (sums.pass.get(k) ?? 0) + passAtK(ranked, relevant, k));
      const cost = ranked.slice(0, k).reduce((sum, id) => sum + (unitTokens.get(id) ?? 0), 0);
      sums.tokens.set(k, (sums.tokens.get(k) ?? 0) + cost);
    }
    if (passAtK(ranked, relevant, widest) === 0) {
      const judgedRelevant = [...relevant].filter(([, grade]) => grade > 0).map(([id]) => id);
      missed.push({
        id: query.id,
        text: query.text,
        relevant: judgedRelevant,
        top: ranked.slice(0, 5),
      });
    }
    options.onProgress?.("query", index + 1, judged.length);
  }
  const querySeconds = (performance.now() - queryStart) / 1000;
  const n = Math.max(1, judged.length);
  const percent = (value: number) => round((100 * value) / n);
  return {
    dataset: dataset.name,
    queries: judged.length,
    passAtK: Object.fromEntries(options.ks.map((k) => [k, percent(sums.pass.get(k) ?? 0)])),
    ndcgAt10: percent(sums.ndcg),
    mrrAt10: percent(sums.mrr),
    queriesPerSecond: round(judged.length / Math.max(querySeconds, 1e-9)),
    tokensPerQuery: Object.fromEntries(
      options.ks.map((k) => [k, Math.round((sums.tokens.get(k) ?? 0) / n)]),
    ),
    missed,
  };
}

async function indexCorpus(
  store: Store,
  dir: string,
  files: readonly CorpusFile[],
  options: EvalOptions,
): Promise<Map<string, number>> {
  const resource = await store.documents.ensureResource(dir, "folder");
  const tokens = new Map<string, number>();
  const total = files.reduce((sum, file) => sum + file.units.length, 0);
  let done = 0;
  let batch: DocumentToStore[] = [];
  for (const file of files) {
    const chunks = file.units.map(({ unit, text, startLine, endLine }) => {
      const count = options.counter.count(text);
      tokens.set(unit.id, count);
      return {
        startLine,
        endLine,
        kind: "unit" as const,
        symbol: "",
        parent: null,
        content: text,
        header: "",
        defines: [],
        tokens: count,
        hash: chunkChecksum(text),
        context: null,
        contextKey: null,
        contextStatus: null,
        embedHash: embedHashOf(null, text),
        // Unit and document ids are not paths: indexing them would only add noise.
        search: { path: "", symbols: "", context: "", body: indexText(text) },
      };
    });
    const graph = await unitGraph(file.path, file.text);
    batch.push({
      resourceId: resource.id,
      path: file.path,
      language: "text",
      size: Buffer.byteLength(file.text),
      mtimeMs: 0,
      hash: "",
      ...(graph ? { graph } : {}),
      chunks,
    });
    done += chunks.length;
    if (batch.length >= 50) {
      await store.documents.writeDocuments(batch);
      batch = [];
      options.onProgress?.("index", done, total);
    }
  }
  await store.documents.writeDocuments(batch);
  options.onProgress?.("index", total, total);
  return tokens;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * Gives each unit a context from the generator, file by file, with its
 * document from documents.jsonl as the whole text (the units joined when the
 * document is not there), indexed with it.
 */
async function contextualizeCorpus(
  store: Store,
  files: readonly CorpusFile[],
  dataset: BeirDataset,
  generator: ContextGenerator,
): Promise<{ generator: string; written: number; empty: number; failed: number }> {
  const [resource] = await store.documents.listResources();
  let written = 0;
  let empty = 0;
  let failed = 0;
  for (const file of files) {
    const chunks = file.units.map(({ text, startLine, endLine }) => ({
      content: text,
      path: "",
      language: "text",
      kind: "unit" as const,
      symbol: "",
      enclosing: [],
      defines: [],
      startLine,
      endLine,
    }));
    let contexts: readonly (string | null)[];
    try {
      contexts = await generator.contextualizeBatch(
        chunks,
        dataset.documents.get(file.path) ?? file.text,
      );
    } catch (error) {
      contexts = error instanceof ContextBatchError ? error.contexts : chunks.map(() => null);
    }
    const stored = new Map(
      (await store.documents.getDocumentChunks(resource?.id ?? "", file.path)).map((chunk) => [
        chunk.startLine,
        chunk,
      ]),
    );
    const updates = [];
    for (const [index, place] of file.units.entries()) {
      const context = contexts[index] ?? null;
      const chunk = stored.get(place.startLine);
      if (context === "" && chunk) {
        empty++;
        continue;
      }
      if (!context || !chunk) {
        failed++;
        continue;
      }
      updates.push({
        chunkId: chunk.id,
        chunkHash: chunk.hash,
        context,
        contextKey: null,
        contextStatus: "generated" as const,
        embedHash: embedHashOf(context, chunk.content),
        search: {
          path: "",
          symbols: "",
          context: indexText(context),
          body: indexText(chunk.content),
        },
      });
      written++;
    }
    await store.contexts.updateChunkContexts(updates);
  }
  return { generator: generator.name, written, empty, failed };
}
