import { loadConfig } from "../../src/config/load-config.js";
import { guessLanguage } from "../../src/contextualize/guess-language.js";
import type { ContextGenerator } from "../../src/core/context-generator.js";
import type { ContextFragment } from "../../src/core/fragment.js";
import type { TokenCounter } from "../../src/core/token-counter.js";
import { type BeirDataset, readBeirDataset } from "../../src/eval/beir.js";
import { corpusFiles, UnitLocator } from "../../src/eval/corpus-files.js";
import { pipelineRanker } from "../../src/eval/pipeline-ranker.js";
import { runEval } from "../../src/eval/run-eval.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { createTokenCounter } from "../../src/tokens/create-counter.js";

/** The code questions' four repositories, one main language each. */
export const CODE_DEV_LANGUAGES = ["rust", "python", "cpp", "java"] as const;

export interface CodeDevRankings {
  readonly dataset: BeirDataset;
  /** The default pipeline's fragments for each query text, best first. */
  readonly byText: ReadonlyMap<string, ContextFragment[]>;
  readonly locator: UnitLocator;
  /** Each unit's document. */
  readonly docOf: ReadonlyMap<string, string>;
  /**
   * Each document's repository, by its language: documents come in repository
   * order, so a document's is the last main language seen up to it (LibAFL's C
   * harnesses stay with LibAFL).
   */
  readonly languageOf: ReadonlyMap<string, string>;
}

/**
 * Every code question of `folder` ranked as `ctx eval` ranks it (at least
 * `minimumDepth` units deep), with what the scripts read off the rankings.
 */
export async function codeDevRankings(
  folder: string,
  options: {
    readonly minimumDepth?: number;
    readonly contextualize?: (counter: TokenCounter) => ContextGenerator;
  } = {},
): Promise<CodeDevRankings> {
  const root = process.cwd();
  const config = await loadConfig(root);
  const counter = createTokenCounter(config.tokens.counter);
  const pipeline = await pipelineRanker({
    config,
    strategies: config.strategies.enabled,
    counter,
    projectRoot: root,
  });
  const dataset = await readBeirDataset(folder);
  const byText = new Map<string, ContextFragment[]>();
  await runEval(dataset, {
    label: "code-dev",
    ks: [5, 10, 20],
    counter,
    openStore: (file) => SqliteStore.open(file, { create: true }),
    ...(options.contextualize ? { contextualize: options.contextualize(counter) } : {}),
    rank: async (store, query, depth) => {
      const fragments = await pipeline(store, query, Math.max(depth, options.minimumDepth ?? 0));
      byText.set(query, fragments);
      return fragments;
    },
  });
  const languageOf = new Map<string, string>();
  let current = "unknown";
  for (const [id, text] of dataset.documents) {
    const language = guessLanguage(text)?.language ?? "";
    if ((CODE_DEV_LANGUAGES as readonly string[]).includes(language)) current = language;
    languageOf.set(id, current);
  }
  return {
    dataset,
    byText,
    locator: new UnitLocator(corpusFiles(dataset)),
    docOf: new Map(dataset.corpus.map((unit) => [unit.id, unit.docId ?? unit.id])),
    languageOf,
  };
}
