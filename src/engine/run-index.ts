import { createHash } from "node:crypto";
import type { ResolvedConfig } from "../config/resolved-config.js";
import {
  type ContextualizeProgress,
  type ContextualizeReport,
  contextualizeIndex,
} from "../contextualize/contextualize-index.js";
import { assertGeneratorInstalled, createGenerator } from "../contextualize/create-generator.js";
import { type CostEstimate, estimateCost } from "../contextualize/estimate-cost.js";
import type { GeneratorChoice } from "../contextualize/resolve-generator.js";
import { UsageMeter } from "../contextualize/usage-meter.js";
import type { Embedder } from "../core/embedder.js";
import type { Store } from "../core/store.js";
import type { TokenCounter } from "../core/token-counter.js";
import type { IndexReport } from "../core/types.js";
import { type EmbedProgress, type EmbedReport, embedIndex } from "../embed/embed-index.js";
import type { EmbedderChoice } from "../embed/resolve-embedder.js";
import {
  type HistoryProgress,
  type HistoryReport,
  ingestHistories,
} from "../history/ingest-history.js";
import { type ChunkLimits, DEFAULT_CHUNK_LIMITS } from "../ingest/chunk/chunk-limits.js";
import type { IndexProgress, IndexRun } from "../ingest/index-run.js";
import { readPathAliases } from "../languages/path-aliases.js";
import { indexProject } from "./index-project.js";

/**
 * Bumped when chunking, tokenizing or structural contexts change in a way that
 * makes stored chunks stale: the next run then re-reads every file (6: the
 * code graph is extracted with the chunks; 7: class fields holding functions
 * are definitions, TypeScript call signatures without semicolons parse; 8:
 * definitions keep their doc comments; 9: a definition without a body
 * (a type alias, a constant) has its own lines as its signature, not the
 * declarations after it; 10: a `.h` file written in C++ is read as C++, and
 * C++ methods defined outside their class are named as methods, a Go method's
 * parent is its receiver's type; 11: a declared name (a C prototype, a C++
 * method declared in its class, a TypeScript overload) is not a use, an
 * ambient TypeScript function and a Go interface's methods are definitions,
 * a call made on something is told from a bare call, and signatures leave out
 * their comment lines; 12: files holding secrets are kept out, so every file
 * indexed before is checked; 13: ten more languages are parsed (Kotlin, Swift,
 * Scala, Dart, Lua, Elixir, Bash, Zig, Vue and Svelte scripts) and four
 * formats cut by their structure (YAML, TOML, HCL, CSS), JavaScript's
 * `exports.f =` and `X.prototype.f =` are definitions and `require` names what
 * it imports, signatures run to their body and Python's include its decorators);
 * 14: a JavaScript module written inside one function (an IIFE, a plugin
 * exported as a function) defines what its statements assign, as the top
 * level's do, and Ruby's `attr_accessor :a, :b`, `define_method(:a)`,
 * `alias_method :a, :b` and `alias a b` define the methods they name; 15:
 * a file whose comments above its code carry a tool's banner ("Code generated
 * … DO NOT EDIT", Bison's) is recorded as generated code; 16: C and C++ whose
 * braces are split across `#ifdef` branches are read with each conditional's
 * first branch, so the functions after them are found; 17: SQL is cut at its
 * statements; 18: JSON is cut at its keys, and C#'s `#pragma` and `#region` lines
 * between a declaration and its body are left out of its signature; 19: a
 * script with no extension is read in the language of its `#!` line (or of
 * its editor's mode line, `-*- shell-script -*-`) and
 * `Rakefile`, `Gemfile`, `.rake`, `.gemspec` and `.ru` as Ruby, the signature of
 * `const f = (…) => {…}` (and of Lua's `f = function(…)`) stops at its body,
 * a signature's later lines keep their indent against its first line, and a
 * use is resolved only to definitions in languages that can name each other
 * (not a Kotlin `List` to a C++ `struct List`) and never to extensions of a
 * type the project does not define (Swift's `extension Int`); 20: C#'s
 * one-line `namespace X;` is no definition; 21: JavaScript's and TypeScript's
 * `import("./x")` (a lazy import, or a type's) and a doc comment's
 * `{import("./types").Options}` import their file; 22: a Python type written
 * as a string (`s: "Session"`) uses the names in it.
 */
export const INGEST_VERSION = "22";

export interface IndexRunOptions {
  readonly choice: GeneratorChoice;
  /** Embeds what has no vector yet after indexing; null: no embedder configured. */
  readonly embedder: { readonly choice: EmbedderChoice; readonly embedder: Embedder | null };
  /** False skips the embedding phase (a query's refresh must not wait for it). */
  readonly embed: boolean;
  /** Estimate what contextualizing would send and cost instead of doing it. */
  readonly dryRun: boolean;
  readonly env: NodeJS.ProcessEnv;
  /** The index file, null when the index lives in memory. */
  readonly storeFile: string | null;
  /** What every layer of the run shares; a run with a scope reads no history. */
  readonly run: IndexRun<IndexRunProgress>;
}

/** What an engine's index run reports as it goes: files, then history, contexts and vectors. */
export type IndexRunProgress =
  | IndexProgress
  | HistoryProgress
  | ContextualizeProgress
  | EmbedProgress;

/** What `ctx index` did: files, then contexts (or, in a dry run, what contexts would cost). */
export interface IndexRunReport extends IndexReport {
  readonly contexts: {
    readonly generator: string;
    readonly model: string;
    readonly reason: string;
    readonly fallback: boolean;
    readonly report: ContextualizeReport | null;
    readonly estimate: CostEstimate | null;
  };
  readonly embeddings: {
    readonly embedder: string;
    readonly reason: string;
    /** Null when no embedder is configured, or the phase was skipped. */
    readonly report: EmbedReport | null;
  };
  /** The git history read for each git checkout (none when `[history] enabled = false`). */
  readonly history: readonly HistoryReport[];
}

/**
 * What the stored chunks were made with: this version's rules, the chunk limits
 * and the token counter. When it differs from the index's, every file is
 * chunked again: a new `max_tokens` used to apply only to files that changed.
 * Default settings keep the bare version, so indexes made with them stay valid.
 */
export function ingestKey(
  limits: ChunkLimits,
  counter: string,
  graph = true,
  aliases = "",
  includeSecrets = false,
): string {
  const { maxTokens, minTokens, overlapLines } = limits;
  const defaults = DEFAULT_CHUNK_LIMITS;
  const isDefault =
    counter === "o200k" &&
    maxTokens === defaults.maxTokens &&
    minTokens === defaults.minTokens &&
    overlapLines === defaults.overlapLines;
  const chunking = isDefault
    ? INGEST_VERSION
    : `${INGEST_VERSION} ${counter} ${maxTokens}/${minTokens}/${overlapLines}`;
  // Turning `include_secrets` on or off re-reads every file: unchanged files
  // holding secrets must come in, or go out.
  const key = includeSecrets ? `${chunking} include-secrets` : chunking;
  // Turning the graph on again must read every file for it, and so must new
  // tsconfig paths: imports are resolved to files when a file is read.
  if (!graph) return `${key} no-graph`;
  return aliases ? `${key} aliases:${aliases}` : key;
}

/**
 * A short fingerprint of the tsconfig paths and baseUrl of every root the index
 * will cover (those it has and those this run adds, so indexing one root does
 * not change it); "" when none sets any.
 */
async function aliasesKey(store: Store, roots: readonly string[]): Promise<string> {
  const recorded = (await store.documents.listResources()).map((resource) => resource.root);
  const all = [...new Set([...recorded, ...roots])].sort();
  // By content, so a root named twice (as given and as its real path) counts once.
  const aliases = new Set(
    all
      .map((root) => readPathAliases(root))
      .flatMap((found) => (found ? [JSON.stringify(found)] : [])),
  );
  if (aliases.size === 0) return "";
  return createHash("sha1")
    .update([...aliases].sort().join("\n"))
    .digest("hex")
    .slice(0, 12);
}

/** How long a second indexer of a project waits for the first before it gives up. */
export const INDEXING_WAIT_MS = 5000;

/**
 * Indexes the roots, then brings every chunk's context in line with the chosen
 * generator, holding the project's indexing lock throughout.
 */
export async function runIndex(
  roots: readonly string[],
  store: Store,
  config: ResolvedConfig,
  counter: TokenCounter,
  options: IndexRunOptions,
): Promise<IndexRunReport> {
  // Before any work: a generator that cannot load would fail only after every file was read.
  assertGeneratorInstalled(options.choice);
  const lock = await store.state.lockIndexing(INDEXING_WAIT_MS);
  try {
    return await indexUnderLock(roots, store, config, counter, options);
  } finally {
    await lock.release();
  }
}

async function indexUnderLock(
  roots: readonly string[],
  store: Store,
  config: ResolvedConfig,
  counter: TokenCounter,
  options: IndexRunOptions,
): Promise<IndexRunReport> {
  const aliases = config.graph ? await aliasesKey(store, roots) : "";
  const ingest = ingestKey(
    config.chunking,
    counter.name,
    config.graph,
    aliases,
    config.hydration.includeSecrets,
  );
  // An empty store holds no stale chunks: recorded first, so a run interrupted
  // before its end does not make the next one re-chunk what it already wrote.
  const empty = (await store.documents.listResources()).length === 0;
  if (empty) await store.state.setMeta("ingest_version", ingest);
  const force =
    options.run.force === true ||
    (!empty && (await store.state.getMeta("ingest_version")) !== ingest);
  // Stale chunking rules call for every file, not only the changed ones.
  const run = { ...options.run, force, scope: force ? undefined : options.run.scope };
  const files = await indexProject(roots, store, config, counter, {
    contexts: options.choice.name === "none" ? "none" : "structural",
    storeFile: options.storeFile,
    run,
  });
  await store.state.setMeta("ingest_version", ingest);
  const history = run.scope
    ? []
    : await ingestHistories(store.history, files.resources, config.history, run);
  const usage = new UsageMeter();
  const generator = await createGenerator(
    options.choice,
    config.contextualize,
    counter,
    usage,
    options.env,
  );
  const { choice } = options;
  const summary = {
    generator: choice.name,
    model: choice.model,
    reason: choice.reason,
    fallback: choice.fallback,
  };
  const noEmbedding = {
    embedder: options.embedder.choice.name,
    reason: options.embedder.choice.reason,
    report: null,
  };
  if (options.dryRun) {
    const estimate = await estimateCost(store, generator, config.contextualize, counter);
    return {
      ...files,
      contexts: { ...summary, report: null, estimate },
      embeddings: noEmbedding,
      history,
    };
  }
  const report = await contextualizeIndex({
    store,
    generator,
    usage,
    concurrency: config.contextualize.concurrency,
    onProgress: run.onProgress,
    signal: run.signal,
  });
  const { embedder } = options.embedder;
  const embeddings =
    embedder && options.embed && store.vectors.available
      ? {
          ...noEmbedding,
          report: await embedIndex(store, embedder, run),
        }
      : noEmbedding;
  return { ...files, contexts: { ...summary, report, estimate: null }, embeddings, history };
}
