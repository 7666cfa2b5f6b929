import { resolve } from "node:path";
import type { ResolvedConfig } from "../config/resolved-config.js";
import type { GeneratorChoice } from "../contextualize/resolve-generator.js";
import type { Embedder } from "../core/embedder.js";
import type { Store } from "../core/store.js";
import type { TokenCounter } from "../core/token-counter.js";
import type { EmbedderChoice } from "../embed/resolve-embedder.js";
import type { IndexOptions } from "./engine-options.js";
import type { CachedGraphSource } from "./graph-source.js";
import { scopeOf } from "./index-scope.js";
import { coveredRoots } from "./project-roots.js";
import { RunGraphBuild } from "./run-graph-build.js";
import type { IndexRunReport } from "./run-index.js";
import { type TreeStates, withTreeStates } from "./tree-states.js";

/** What an index run uses of an open engine. */
export interface IndexingParts {
  /** The project root: the root of a new index. */
  readonly root: string;
  readonly store: Store;
  readonly config: ResolvedConfig;
  readonly counter: TokenCounter;
  readonly env: NodeJS.ProcessEnv;
  /** The index file, null when the index lives in memory. */
  readonly storeFile: string | null;
  readonly graph: CachedGraphSource;
  readonly generator: GeneratorChoice;
  readonly embedder: EmbedderChoice;
  readonly embedderFor: (choice: EmbedderChoice) => Promise<Embedder | null>;
}

/**
 * One index run of an engine: `paths` (default: the roots the index covers, or
 * the project root for a new index), recorded with their git states when the
 * run covered them whole (`known`: the states read just before, when the
 * caller has them), and the code graph rebuilt from what it wrote.
 */
export async function indexRoots(
  parts: IndexingParts,
  paths: readonly string[] | undefined,
  options: IndexOptions,
  known: TreeStates | null | undefined,
): Promise<IndexRunReport> {
  const { store, config } = parts;
  const named = paths !== undefined && paths.length > 0;
  const roots = named ? paths.map((path) => resolve(path)) : await coveredRoots(store, parts.root);
  const scope = options.only ? scopeOf(roots, options.only) : undefined;
  const states = {
    whole: !named && scope === undefined && !options.dryRun,
    writes: !options.dryRun,
    known,
  };
  return withTreeStates(store, config, roots, states, async () => {
    const graphRun = config.graph
      ? new RunGraphBuild(parts.graph, () => Boolean(options.dryRun || options.signal?.aborted))
      : null;
    // Loaded when a run has work to do: a query on an index git says is current never needs it.
    const { runIndex } = await import("./run-index.js");
    const report = await runIndex(roots, store, config, parts.counter, {
      choice: parts.generator,
      embedder: { choice: parts.embedder, embedder: await parts.embedderFor(parts.embedder) },
      embed: options.embed ?? true,
      dryRun: options.dryRun ?? false,
      env: parts.env,
      storeFile: parts.storeFile,
      run: {
        force: options.force,
        recordedRoots: !named,
        scope,
        signal: options.signal,
        onProgress: options.onProgress,
        ...graphRun?.hooks,
      },
    });
    await graphRun?.finish(scope !== undefined);
    return report;
  });
}
