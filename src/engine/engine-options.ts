/** What the engine's callers pass in and get back: open, index and query options, query results. */
import type { PackResult } from "../assemble/pack-to-budget.js";
import type { OutputFormat } from "../assemble/renderers.js";
import type { ContextualizeProgress } from "../contextualize/contextualize-index.js";
import type { StrategyRun } from "../core/provenance.js";
import type { ContextStrategy } from "../core/strategy.js";
import type { EmbedProgress } from "../embed/embed-index.js";
import type { HistoryProgress } from "../history/ingest-history.js";
import type { IndexProgress } from "../ingest/index-run.js";
import type { CandidateTrace } from "./request-trace.js";

export interface OpenOptions {
  /** A folder inside the project (default: the working folder). */
  readonly start?: string;
  /** Index file, overriding the configured one; relative to `cwd`. */
  readonly db?: string;
  /**
   * When the index file does not exist: create it (default), fail with
   * IndexMissingError, or use an empty in-memory index (to inspect settings and
   * strategies without leaving a file behind).
   */
  readonly ifMissing?: "create" | "fail" | "in-memory";
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Strategies to register besides the built-ins and the config's custom ones. */
  readonly strategies?: readonly ContextStrategy[];
  /**
   * Where the line naming an untrusted project file's ignored settings goes
   * (default: stderr, once per process).
   */
  readonly warn?: (line: string) => void;
}

export interface IndexOptions {
  /** Context generator to use, overriding config and environment (top of the priority chain). */
  readonly contextualize?: string;
  /** Embedder to use, overriding config (`none` turns embedding off for this run). */
  readonly embedder?: string;
  /** False skips embedding (default true); queries refresh without it. */
  readonly embed?: boolean;
  /** Only estimate what contextualizing would send and cost. */
  readonly dryRun?: boolean;
  readonly onProgress?: (
    progress: IndexProgress | HistoryProgress | ContextualizeProgress | EmbedProgress,
  ) => void;
  readonly signal?: AbortSignal;
  /**
   * Only these absolute paths (files or folders, changed, added or deleted) of
   * the covered roots, without listing the rest: what a watcher saw change.
   */
  readonly only?: readonly string[];
  /** Read and chunk every file again, whatever its size and mtime say (`ctx index --force`). */
  readonly force?: boolean;
}

export interface QueryOptions {
  readonly task: string;
  readonly budget: number;
  readonly format?: OutputFormat;
  /** Only fragments under these paths (relative to a root). */
  readonly paths?: readonly string[];
  /**
   * What the caller is working on: files or folders (relative to a root) and/or
   * symbol names; `breadth-depth-navigator` starts its walk from them.
   */
  readonly focus?: readonly string[];
  /** Run these strategies instead of the project's enabled list. */
  readonly strategies?: readonly string[];
  /** The plan the caller works in: its decisions and its ancestors' join the context. */
  readonly planId?: string;
  /** Put the provenance preamble (and each fragment's strategy) in the output. */
  readonly explain?: boolean;
  readonly signal?: AbortSignal;
  /** False keeps the request out of the request log (a probe, not an answer anyone reads); its id is "". */
  readonly record?: boolean;
}

/** What one strategy contributed to a query, after packing. */
export interface StrategyContribution extends StrategyRun {
  /** Fragments of this strategy in the output, and their tokens. */
  readonly packedFragments: number;
  readonly packedTokens: number;
}

export interface QueryResult extends PackResult {
  /** Id of this request, for `explain`. */
  readonly requestId: string;
  /**
   * Focus entries that led nowhere: they name no file, folder or definition in
   * the code graph (every entry while the graph is off).
   */
  readonly unknownFocus: readonly string[];
  readonly task: string;
  readonly budget: number;
  readonly format: OutputFormat;
  readonly candidates: number;
  readonly provenance: readonly StrategyContribution[];
  /** Every candidate fragment and what became of it (in, or why not). */
  readonly trace: readonly CandidateTrace[];
  /** When the request was answered, ISO 8601. */
  readonly createdAt: string;
}

/** Which strategies run for a project, and where that list comes from. */
export interface EnabledStrategies {
  readonly enabled: readonly string[];
  readonly source: "project" | "config" | "default";
  /** The config file, for "config". */
  readonly file?: string;
}
